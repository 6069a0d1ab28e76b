// xlsx adapter (conformance/SPEC.md, format xlsx) built on Perl's Spreadsheet::ParseXLSX: the
// Perl side (xlsx_parsexlsx.pl) prints what ParseXLSX read as the plain model of xlsx_dump.cjs,
// which writes the dump here. Exit statuses of the Perl side pass through (1 rejected with its
// "error:" line, 2 unsupported, 3 an adapter failure).
// Usage: node xlsx_parsexlsx.cjs FILE -> dump on stdout, exit 0.
//        node xlsx_parsexlsx.cjs --batch (conformance/SPEC.md section 2, "Batch mode"; one Perl per input).
"use strict";
const path = require("path");
const { spawnSync } = require("child_process");
const { dumpLines } = require("./xlsx_dump.cjs");
const { emitLines } = require("./canonical.cjs");
const { serve } = require("./batch.cjs");

function main() {
  const perl = spawnSync("/usr/bin/perl", [path.join(__dirname, "xlsx_parsexlsx.pl"), process.argv[2]],
                         { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30 });
  process.stderr.write(perl.stderr);
  if (perl.status !== 0) process.exit(perl.status === null ? 3 : perl.status);
  const model = JSON.parse(perl.stdout.toString("utf8"));
  for (const sheet of model.sheets) {
    for (const cell of sheet.cells) if (cell.value.t === "n") cell.value.v = Number(cell.value.v);
  }
  emitLines(dumpLines(model));
}

serve(main);
