#!/usr/bin/env bash
# Times whole-process loads of one .xlsx by the reference (docconform digest, 2 threads and
# serial), openpyxl (normal and read_only), SheetJS and exceljs, one after the other in the same
# run, and prints wall seconds and peak RSS for each (GNU time). Third-party readers come from
# Debian (python3-openpyxl, run with /usr/bin/python3) and from tools/xlsx-compare (npm ci).
# Usage: tools/xlsx_compare.sh FILE [DOCCONFORM_BINARY]
set -euo pipefail
file=$1
here=$(cd "$(dirname "$0")" && pwd)
bin=${2:-$here/../build/default/tools/docconform}
[[ -d $here/xlsx-compare/node_modules ]] || (cd "$here/xlsx-compare" && npm ci --no-audit --no-fund >&2)

run() {
  local name=$1; shift
  local out
  out=$( { /usr/bin/time -f "%e %M" "$@" >/dev/null; } 2>&1 | tail -1 )
  printf '%-22s %8s s %8d MiB\n' "$name" "${out% *}" $(( ${out#* } / 1024 ))
}

echo "file: $file ($(stat -c %s "$file") bytes), load average $(cut -d' ' -f1 /proc/loadavg)"
run "docconform 2 threads" "$bin" digest xlsx "$file" --threads 2
run "docconform serial" "$bin" digest xlsx "$file" --serial
run "openpyxl read_only" /usr/bin/python3 "$here/xlsx-compare/openpyxl_load.py" "$file" read_only
run "openpyxl" /usr/bin/python3 "$here/xlsx-compare/openpyxl_load.py" "$file"
run "SheetJS 0.18.5" node --max-old-space-size=8192 "$here/xlsx-compare/sheetjs_load.js" "$file"
run "exceljs 4.4.0" node --max-old-space-size=8192 "$here/xlsx-compare/exceljs_load.js" "$file"
