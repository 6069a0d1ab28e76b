#!/usr/bin/env bash
# Side-by-side PDF indexing benchmark: docconform's byte sources, qpdf --check and mutool show of
# every object, on the same file in the same run (ratios are only meaningful within one run).
# Usage: tools/bench_pdf_compare.sh FILE [--cold] [--window BYTES] [--runs N] [--threads LIST]
# Needs build/default/tools/docconform; qpdf and mutool are optional (skipped when absent).
# With strace installed, the kernel calls of qpdf and mutool are counted in a separate run.
set -euo pipefail
file=$1; shift
cache=--warm; window=$((64 << 20)); runs=3; threads=1,2
while (($#)); do
  case $1 in
    --cold) cache=--cold ;;
    --window) window=$2; shift ;;
    --runs) runs=$2; shift ;;
    --threads) threads=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")/.." && pwd)
docconform=${DOCCONFORM:-$here/build/default/tools/docconform}

evict() { /usr/bin/python3 -c 'import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)' "$file"; }
# Median wall time of a command over $runs runs (warm: one untimed run first; cold: evict before each).
median() {
  local times=()
  [[ $cache == --warm ]] && "$@" >/dev/null 2>&1 || true
  for ((i = 0; i < runs; i++)); do
    [[ $cache == --cold ]] && evict
    local start end
    start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f", b - a}')")
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p"
}
syscalls() {  # total syscalls and the read/lseek/mmap share, from strace -c
  command -v strace >/dev/null || { echo null; return; }
  strace -f -c -o /tmp/bench_pdf_strace.$$ "$@" >/dev/null 2>&1 || true
  # strace -c columns: % time, seconds, usecs/call, calls, [errors], syscall
  awk '$NF=="total"{t=$4} $NF=="read"{r=$4} $NF=="lseek"{l=$4} $NF=="pread64"{p=$4} $NF=="mmap"{m=$4}
       END{printf "{\"total\":%d,\"read\":%d,\"lseek\":%d,\"pread64\":%d,\"mmap\":%d}", t, r, l, p, m}' /tmp/bench_pdf_strace.$$
  rm -f /tmp/bench_pdf_strace.$$
}

echo "bench_pdf_compare: docconform bench ($cache)" >&2
ours=$("$docconform" bench pdf "$file" --source pread,buffered,mapped,whole --window "$window" "$cache" --runs "$runs" \
  --threads "$threads" --json)
qpdf_s=null; qpdf_calls=null; mutool_s=null; mutool_calls=null
if command -v qpdf >/dev/null; then
  echo "bench_pdf_compare: qpdf --check" >&2
  qpdf_s=$(median qpdf --check "$file"); qpdf_calls=$(syscalls qpdf --check "$file")
fi
if command -v mutool >/dev/null; then
  echo "bench_pdf_compare: mutool show grep (every object)" >&2
  mutool_s=$(median mutool show -o /dev/null "$file" grep); mutool_calls=$(syscalls mutool show -o /dev/null "$file" grep)
fi
printf '{"docconform":%s,"qpdf_check_s":%s,"qpdf_syscalls":%s,"mutool_show_all_s":%s,"mutool_syscalls":%s}\n' \
  "$(echo "$ours" | tr -d '\n')" "$qpdf_s" "$qpdf_calls" "$mutool_s" "$mutool_calls"
