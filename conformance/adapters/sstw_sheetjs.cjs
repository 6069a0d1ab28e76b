// sstw adapter (conformance/SPEC.md, format sstw) built on SheetJS (npm `xlsx`, pinned in
// package-lock.json): its BIFF8 writer (bookType "biff8", bookSST) writes the cells of a strings
// file into a .xls, and our reader dumps that workbook's SST (`docconform sst dump`).
// Cells go row by row, 256 to a row, because SheetJS adds strings to its table in that order.
// Usage: node sstw_sheetjs.cjs STRINGS DOCCONFORM -> the dump, exit 0; exit 1 "error: <class>".
//        node sstw_sheetjs.cjs --batch DOCCONFORM (conformance/SPEC.md section 2, "Batch mode").
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");
const XLSX = require(path.join(__dirname, "node_modules", "xlsx"));
const { serve, writeOut } = require("./batch.cjs");

const COLUMNS = 256;
// SheetJS 0.18.5 writes each string as UTF-16 in one record and never continues one: given a
// string of more than (8224 - 3) / 2 = 4,110 code units, its writer does not return (measured:
// 4,110 writes at once, 4,111 ran until killed after 10 s, compressible or not). Such cases are
// reported as unsupported (exit 2), not left to time out.
const MAX_UNITS = 4110;

function reject(kind, why) {
  process.stderr.write(`${why}\nerror: ${kind}\n`);
  process.exit(1);
}

// One cell per non-blank line: a JSON string, or an object whose "s" is the text.
function readCells(file) {
  const cells = [];
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file));
  } catch (e) {
    reject("format", `${file}: not UTF-8 (${e.message})`);  // JSON text is UTF-8 (RFC 8259 8.1)
  }
  text.split("\n").forEach((line, index) => {
    if (/^[ \t\r]*$/.test(line)) return;
    let value;
    try {
      value = JSON.parse(line);
    } catch (e) {
      reject("format", `${file}: line ${index + 1}: ${e.message}`);
    }
    const text = value !== null && typeof value === "object" ? value.s : value;
    if (typeof text !== "string") reject("format", `${file}: line ${index + 1}: not a string`);
    cells.push(text);
  });
  return cells;
}

function main() {
  const [stringsPath, docconform] = process.argv.slice(2);
  const cells = readCells(stringsPath);
  const longest = cells.reduce((most, text) => Math.max(most, text.length), 0);
  if (longest > MAX_UNITS) {
    process.stderr.write(`a string of ${longest} code units: SheetJS writes at most ${MAX_UNITS} (one record)\nerror: unsupported\n`);
    process.exit(2);
  }
  const sheet = {};
  cells.forEach((text, i) => {
    sheet[XLSX.utils.encode_cell({ r: Math.floor(i / COLUMNS), c: i % COLUMNS })] = { t: "s", v: text };
  });
  if (cells.length > 0) {
    const last = { r: Math.floor((cells.length - 1) / COLUMNS), c: cells.length > COLUMNS ? COLUMNS - 1 : cells.length - 1 };
    sheet["!ref"] = XLSX.utils.encode_range({ r: 0, c: 0 }, last);
  }
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, "Sheet1");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sstw-sheetjs-"));
  try {
    const written = path.join(work, "written.xls");
    try {
      fs.writeFileSync(written, XLSX.write(workbook, { type: "buffer", bookType: "biff8", bookSST: true }));
    } catch (e) {
      reject("range", `SheetJS: ${e && e.message ? e.message : e}`);
    }
    // A workbook our reader cannot read is a wrong result (sst_writing.py does the same).
    // Through writeOut, so that in batch mode the dump lands in this input's frame.
    const read = spawnSync(docconform, ["sst", "dump", written], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 2 ** 31 });
    if (read.error) throw read.error;
    if (read.status === 0) {
      writeOut(read.stdout);
    } else {
      const why = read.stderr.toString("latin1").trim().split("\n").pop() || `exit ${read.status}`;
      writeOut(`docconform-dump sst 1\nunreadable: ${why.replace(/[^\x20-\x7e]/g, "?")}\n`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

serve(main);
