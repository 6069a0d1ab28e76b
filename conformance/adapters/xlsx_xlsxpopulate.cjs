// xlsx adapter (conformance/SPEC.md, format xlsx) built on xlsx-populate (npm, pinned in package-lock.json).
//
// XlsxPopulate.fromDataAsync, then its workbook model: sheets in workbook order with hidden()
// (false, true, "very"), each row's cells (value(), and the formula the cell parsed: type, ref,
// si, text), the merged ranges, and date1904 from the workbookPr node xlsx-populate parsed (it
// keeps the attribute but converts dates in the 1900 system only). xlsx-populate models neither
// comments, tables nor charts, and loads each sheet from the fixed part name
// xl/worksheets/sheet<N>.xml, not from the workbook's relationships; a package with comment, table,
// chart, chartsheet, dialog or macro sheet parts exits 2. Its departures are recorded in
// conformance/expectations/xlsx-populate.tsv.
// Usage: node xlsx_xlsxpopulate.cjs FILE -> dump on stdout, exit 0; exit 1 "error: <class>"; exit 2.
// With $DOCCONFORM_PHASES set, also times the phase xlsx_load (XlsxPopulate.fromDataAsync).
"use strict";
const fs = require("fs");
const path = require("path");
const XlsxPopulate = require(path.join(__dirname, "node_modules", "xlsx-populate"));
const RichText = require(path.join(__dirname, "node_modules", "xlsx-populate", "lib", "RichText"));
const FormulaError = require(path.join(__dirname, "node_modules", "xlsx-populate", "lib", "FormulaError"));
const JSZip = require(path.join(__dirname, "node_modules", "jszip"));
const { runAdapter, Unsupported } = require("./xlsx_dump.cjs");

const STATES = { false: "visible", true: "hidden", very: "veryHidden" };

function plainValue(v) {
  if (v === null || v === undefined) return { t: "blank" };
  if (typeof v === "number") return { t: "n", v };
  if (typeof v === "string") return { t: "s", v };
  if (typeof v === "boolean") return { t: "b", v };
  if (v instanceof RichText) return { t: "s", v: v.text() };
  if (v instanceof FormulaError) return { t: "e", v: v.error() };
  throw new Error("unknown xlsx-populate value " + JSON.stringify(v));
}

function formulaOf(cell) {
  if (cell._formulaType === undefined || cell._formulaType === null) return null;
  const text = cell._formula === undefined ? "" : String(cell._formula);
  return { kind: cell._formulaType, si: cell._sharedFormulaId, ref: cell._formulaRef, text };
}

function readSheet(ws) {
  const sheet = { name: ws.name(), state: STATES[ws.hidden()], kind: "worksheet", cells: [], comments: [], tables: [], charts: 0 };
  sheet.merges = Object.keys(ws._mergeCells);
  ws._rows.forEach((row, rowNumber) => row && row._cells.forEach((cell, col) => {
    if (!cell) return;
    sheet.cells.push({ row: rowNumber, col, value: plainValue(cell.value()), formula: formulaOf(cell) });
  }));
  return sheet;
}

runAdapter(async (file) => {
  const bytes = fs.readFileSync(file);
  const zip = await JSZip.loadAsync(bytes);
  const wb = await XlsxPopulate.fromDataAsync(bytes);
  if (Object.keys(zip.files).some((k) => /(^|\/)(charts|chartsheets|tables|dialogsheets|macrosheets)\/|(^|\/)comments[^/]*\.xml$/i.test(k))) {
    throw new Unsupported("xlsx-populate reads no comments, tables, charts, chartsheets, dialog or macro sheets");
  }
  const pr = wb._node.children.find((n) => n && n.name === "workbookPr");
  const date1904 = !!pr && (pr.attributes.date1904 === 1 || pr.attributes.date1904 === true || pr.attributes.date1904 === "true");
  return { date1904, sheets: wb.sheets().map(readSheet) };
}, (bytes) => XlsxPopulate.fromDataAsync(bytes));
