// sst adapter (conformance/SPEC.md, format sst) built on SheetJS (npm `xlsx`, pinned in package-lock.json).
//
// SheetJS keeps a legacy .xls workbook's shared string table as workbook.Strings when read with
// bookSST; each entry's `t` is the string's text. A workbook (CFB container or bare BIFF stream) is
// read as it is. A record file (named .sst) is not a format SheetJS opens, so the adapter frames its
// records as a bare BIFF8 globals substream (BOF, the file's records unchanged, EOF) and lets
// SheetJS read that; SheetJS parses the SST and its CONTINUE records itself.
// Usage: node sst_sheetjs.cjs FILE -> dump on stdout, exit 0; exit 1 with "error: <class>".
//        node sst_sheetjs.cjs --batch (conformance/SPEC.md section 2, "Batch mode").
"use strict";
const fs = require("fs");
const path = require("path");
const XLSX = require(path.join(__dirname, "node_modules", "xlsx"));

const { quoted, emitLines } = require("./canonical.cjs");
const { serve } = require("./batch.cjs");

function record(type, payload) {
  const header = Buffer.alloc(4);
  header.writeUInt16LE(type, 0);
  header.writeUInt16LE(payload.length, 2);
  return Buffer.concat([header, payload]);
}

// BOF: BIFF8 (0x0600), workbook globals (0x0005), build/year fields as Excel 97 writes them.
function framed(records) {
  const bof = Buffer.from([0x00, 0x06, 0x05, 0x00, 0xaf, 0x18, 0xcd, 0x07, 0xc1, 0x00, 0x01, 0x00, 0x06, 0x03, 0x00, 0x00]);
  return Buffer.concat([record(0x0809, bof), records, record(0x000a, Buffer.alloc(0))]);
}

function main() {
  const data = fs.readFileSync(process.argv[2]);
  let strings;
  try {
    // The name tells the kind (conformance/SPEC.md, format sst, "Case files").
    const records = process.argv[2].toLowerCase().endsWith(".sst");
    const workbook = XLSX.read(records ? framed(data) : data, { type: "buffer", bookSST: true, cellHTML: false });
    strings = workbook.Strings || [];
  } catch (e) {
    process.stderr.write(`error: format ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  }
  emitLines(["docconform-dump sst 1", `strings ${strings.length}`, ...strings.map((s) => quoted(s.t))]);
}

serve(main);
