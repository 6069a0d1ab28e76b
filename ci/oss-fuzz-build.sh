#!/bin/bash -eu
# The OSS-Fuzz / ClusterFuzzLite build of every fuzz target (.clusterfuzzlite/build.sh calls it).
# Input, as those engines set it: $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT $WORK.
# Output, for each fuzz/<t>_fuzzer.cc: $OUT/<t>_fuzzer, <t>_fuzzer_seed_corpus.zip (corpus/<t>/,
# regressions included), <t>_fuzzer.dict, <t>_fuzzer.options (when fuzz/<t>.options exists), and
# the shared libraries the runner image lacks in $OUT/lib (found through RUNPATH $ORIGIN/lib).
: "${CC:?} ${CXX:?} ${CFLAGS?} ${CXXFLAGS?} ${LIB_FUZZING_ENGINE?} ${OUT:?} ${WORK:?}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# The oss-fuzz preset reads the variables above (CMakePresets.json holds every build's flags).
cmake --preset oss-fuzz >"$WORK/docconform-configure.log" 2>&1 || { cat "$WORK/docconform-configure.log"; exit 1; }
cmake --build "$WORK/docconform-build" --target fuzzers -j"$(nproc)"

# Libraries every OSS-Fuzz runner image has; anything else travels in $OUT/lib.
base_libs='^(linux-vdso|ld-linux|libc|libm|libdl|librt|libpthread|libgcc_s|libstdc\+\+|libc\+\+|libc\+\+abi)\.so'
mkdir -p "$OUT/lib"
count=0
for source in fuzz/*_fuzzer.cc; do
  target=$(basename "$source" _fuzzer.cc)
  binary="$WORK/docconform-build/fuzz/${target}_fuzzer"
  [[ -x "$binary" ]] || { echo "oss-fuzz-build: $source has no ${target}_fuzzer (missing docconform_add_fuzzer($target)?)" >&2; exit 1; }
  cp "$binary" "$OUT/"
  cp "fuzz/$target.dict" "$OUT/${target}_fuzzer.dict"
  if [[ -f "fuzz/$target.options" ]]; then cp "fuzz/$target.options" "$OUT/${target}_fuzzer.options"; fi
  rm -f "$OUT/${target}_fuzzer_seed_corpus.zip"
  seeds=$(find "corpus/$target" -type f -size +0 ! -name '.*' 2>/dev/null | sort)
  if [[ -n "$seeds" ]]; then
    # -j: flat names (seeds are named by content hash; regressions by what they exposed).
    echo "$seeds" | zip -q -j "$OUT/${target}_fuzzer_seed_corpus.zip" -@
  fi
  ldd "$binary" | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
    [[ "$name" =~ $base_libs ]] || cp -L "$path" "$OUT/lib/$name"
  done
  count=$((count + 1))
done
echo "oss-fuzz-build: $count fuzz targets in $OUT"
