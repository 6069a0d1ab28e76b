// xlsx adapter (conformance/SPEC.md, format xlsx) built on exceljs (npm, pinned in package-lock.json).
//
// Workbook.xlsx.readFile, then the document model: worksheets in tab order with their state,
// each row's cells by value type, merges, comments (notes) and tables; date1904 from
// workbook.properties. exceljs reads no charts and no chartsheets, so a package with chart or
// chartsheet parts exits 2 (unsupported; the part names are listed with jszip, which exceljs
// itself uses). exceljs keeps no comment authors and no shared-formula `si` numbers; cells with a
// date number format come back as Date objects and are turned back into serial numbers here.
// Those differences are listed in conformance/expectations/exceljs.tsv.
// Usage: node xlsx_exceljs.cjs FILE -> dump on stdout, exit 0; exit 1 "error: <class>"; exit 2.
// With $DOCCONFORM_PHASES set, also times the phase xlsx_load (Workbook.xlsx.load).
"use strict";
const fs = require("fs");
const path = require("path");
const ExcelJS = require(path.join(__dirname, "node_modules", "exceljs"));
const JSZip = require(path.join(__dirname, "node_modules", "jszip"));
const { runAdapter, Unsupported } = require("./xlsx_dump.cjs");

const DAY_MS = 86400000;
// The serial number 0 of each date system, as a UTC time (1900 system: 1899-12-30, Excel's
// phantom 29 February 1900 included in its numbering).
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

function text(parts) {
  return parts.map((p) => p.text).join("");
}

function plainValue(v, date1904) {
  if (v === null || v === undefined) return { t: "blank" };
  if (typeof v === "number") return { t: "n", v };
  if (typeof v === "string") return { t: "s", v };
  if (typeof v === "boolean") return { t: "b", v };
  if (v instanceof Date) return { t: "n", v: (v.getTime() - (date1904 ? EPOCH_1904 : EPOCH_1900)) / DAY_MS };
  if (v.error !== undefined) return { t: "e", v: v.error };
  if (v.richText) return { t: "s", v: text(v.richText) };
  if (Object.keys(v).length === 0) return { t: "s", v: "" };  // exceljs's value of an empty <si/>
  if (v.text !== undefined) return { t: "s", v: typeof v.text === "string" ? v.text : text(v.text.richText) };
  throw new Error("unknown exceljs value " + JSON.stringify(v));
}

function formulaOf(model) {
  if (model.sharedFormula !== undefined) return { kind: "shared", text: "" };
  if (model.formula === undefined) return null;
  const kind = model.shareType || "normal";
  return kind === "normal" ? { kind, text: model.formula } : { kind, ref: model.ref, text: model.formula };
}

function readSheet(ws, date1904) {
  const sheet = { name: ws.name, state: ws.state || "visible", kind: "worksheet", cells: [], comments: [], charts: 0 };
  sheet.merges = Object.values(ws._merges).map((m) => m.range);
  sheet.tables = (ws.model.tables || []).map((t) => ({ name: t.name, ref: t.tableRef }));
  // The sparse row and cell arrays hold the cells exceljs created while reading the sheet.
  ws._rows.forEach((row) => row && row._cells.forEach((cell) => {
    if (!cell) return;
    const model = cell.model;
    if (cell.note !== undefined) {
      const note = cell.note;
      sheet.comments.push({ row: cell.row, col: cell.col, author: "", text: typeof note === "string" ? note : text(note.texts || []) });
      // exceljs creates an empty cell to hold a comment on a position the sheet lacks.
      if (cell.type === ExcelJS.ValueType.Null) return;
    }
    if (cell.type === ExcelJS.ValueType.Merge) return;  // exceljs's filler for a merged range
    const value = model.formula !== undefined || model.sharedFormula !== undefined
      ? plainValue(model.result, date1904) : plainValue(cell.value, date1904);
    sheet.cells.push({ row: cell.row, col: cell.col, value, formula: formulaOf(model) });
  }));
  return sheet;
}

runAdapter(async (file) => {
  const bytes = fs.readFileSync(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes);
  const zip = await JSZip.loadAsync(bytes);
  if (Object.keys(zip.files).some((k) => /(^|\/)(charts|chartsheets)\//i.test(k))) {
    throw new Unsupported("exceljs reads no charts or chartsheets");
  }
  const rels = zip.file(/(^|\/)_rels\/[^/]*\.rels$/i).map((f) => f.name);
  for (const name of rels) {
    if (/relationships\/(dialogsheet|xlMacrosheet|xlIntlMacrosheet)"/.test(await zip.file(name).async("string"))) {
      throw new Unsupported("exceljs reads no dialog or macro sheets (it drops them from the workbook)");
    }
  }
  const date1904 = !!wb.properties.date1904;
  return { date1904, sheets: wb.worksheets.map((ws) => readSheet(ws, date1904)) };
}, (bytes) => new ExcelJS.Workbook().xlsx.load(bytes));
