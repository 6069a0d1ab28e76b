// xlsx adapter (conformance/SPEC.md, format xlsx) built on SheetJS (npm `xlsx`, pinned in package-lock.json).
//
// XLSX.read with cellFormula (formula text, `F` = an array formula's range), sheetStubs (cells
// without a value appear as type "z"), cellDates off (numbers stay serial numbers), and bookFiles
// (the package's part names, to see whether the workbook has tables or charts). SheetJS models
// neither tables nor charts: a workbook with such parts exits 2 (unsupported). Sheet states come
// from Workbook.Sheets[].Hidden (0, 1, 2), date1904 from Workbook.WBProps, comments from each
// cell's `c` list (threaded comments, flagged `T`, are SheetJS's copy of the thread and skipped:
// SheetJS then drops the legacy comment that the SPEC dumps). SheetJS expands shared formulas into every cell, so
// their dump differs (conformance/expectations/sheetjs.tsv).
// Usage: node xlsx_sheetjs.cjs FILE -> dump on stdout, exit 0; exit 1 "error: <class>"; exit 2.
// With $DOCCONFORM_PHASES set, also times the phase xlsx_load (XLSX.read with the options above).
"use strict";
const fs = require("fs");
const path = require("path");
const XLSX = require(path.join(__dirname, "node_modules", "xlsx"));
const { runAdapter, parseRef, Unsupported } = require("./xlsx_dump.cjs");

const STATES = ["visible", "hidden", "veryHidden"];

function cellValue(cell) {
  switch (cell.t) {
    case "n": return { t: "n", v: cell.v };
    case "s": return { t: "s", v: cell.v === undefined ? "" : cell.v };  // SheetJS leaves v out of an empty string
    case "b": return { t: "b", v: cell.v };
    case "e": return { t: "e", v: cell.w };
    case "d": return { t: "d", v: String(cell.v) };
    case "z": return { t: "blank" };
    default: throw new Error("unknown SheetJS cell type " + cell.t);
  }
}

function readSheet(ws, state, name) {
  if (!ws) throw new Error("SheetJS found no worksheet part for sheet " + name);
  if (ws["!type"] === "chart") return { name, state, kind: "chartsheet" };
  // SheetJS lists a macro sheet of an xlsx package but reads none of its cells.
  if (ws["!type"] === "macro") throw new Unsupported("SheetJS reads no cells of macro sheets");
  if (ws["!type"] === "dialog") return { name, state, kind: "dialogsheet" };
  const sheet = { name, state, kind: "worksheet", cells: [], comments: [], tables: [], charts: 0 };
  sheet.merges = (ws["!merges"] || []).map((m) => XLSX.utils.encode_range(m));
  for (const key of Object.keys(ws)) {
    if (key[0] === "!") continue;
    const cell = ws[key];
    const { row, col } = parseRef(key);
    for (const c of cell.c || []) {
      if (!c.T) sheet.comments.push({ row, col, author: c.a || "", text: c.t || "" });
    }
    // SheetJS creates a stub cell to carry a comment on a position the sheet lacks.
    if (cell.t === "z" && cell.c && cell.c.length) continue;
    const formula = cell.f === undefined ? null
      : cell.F ? { kind: "array", ref: cell.F, text: cell.f } : { kind: "normal", text: cell.f };
    sheet.cells.push({ row, col, value: cellValue(cell), formula });
  }
  return sheet;
}

const READ_OPTIONS = { type: "buffer", cellFormula: true, sheetStubs: true, cellDates: false, cellText: true, bookFiles: true };

runAdapter((file) => {
  const wb = XLSX.read(fs.readFileSync(file), READ_OPTIONS);
  if ((wb.keys || []).some((k) => /(^|\/)(tables|charts)\//i.test(k))) {
    throw new Unsupported("tables and charts are not modelled by SheetJS");
  }
  const props = (wb.Workbook && wb.Workbook.Sheets) || [];
  return {
    date1904: !!(wb.Workbook && wb.Workbook.WBProps && wb.Workbook.WBProps.date1904),
    sheets: wb.SheetNames.map((name, i) => readSheet(wb.Sheets[name], STATES[(props[i] && props[i].Hidden) || 0], name)),
  };
}, (bytes) => XLSX.read(bytes, READ_OPTIONS));
