// The canonical xlsx dump (conformance/SPEC.md, format xlsx) written from a plain workbook model, shared by
// the JavaScript xlsx adapters (xlsx_sheetjs.cjs, xlsx_exceljs.cjs). Each adapter fills the model
// from what its library read; ordering, the merged-range rule and the text forms live here.
//
// Model: { date1904: bool, sheets: [{ name, state: "visible"|"hidden"|"veryHidden",
//   kind: "worksheet"|"chartsheet"|"dialogsheet"|"macrosheet"|"intlmacrosheet", cells: [{ row, col, value, formula }], merges: ["A1:B2"],
//   comments: [{ row, col, author, text }], tables: [{ name, ref }], charts: count }] }
// value: { t: "n"|"s"|"b"|"e"|"d"|"blank", v }; formula: null or { kind, si, ref, text }.
"use strict";
const fs = require("node:fs");

const { Exit, serve } = require("./batch.cjs");
const { quoted, number, emitLines } = require("./canonical.cjs");
const { timePhase } = require("./phases.cjs");

function unescapeOoxml(text) {
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function columnLetters(col) {
  let letters = "";
  for (let c = col; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return letters;
}

function cellRef(row, col) {
  return columnLetters(col) + row;
}

// "B3" -> { row: 3, col: 2 }.
function parseRef(ref) {
  const m = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(ref);
  if (!m) throw new Error("bad cell reference " + ref);
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]), col };
}

function rangeBounds(range) {
  const [first, last = first] = range.split(":");
  const a = parseRef(first), b = parseRef(last);
  return { r0: Math.min(a.row, b.row), c0: Math.min(a.col, b.col), r1: Math.max(a.row, b.row), c1: Math.max(a.col, b.col) };
}

function valueText(value) {
  switch (value.t) {
    case "n": return "n " + number(value.v);
    case "s": return "s " + quoted(value.v);
    case "b": return value.v ? "b true" : "b false";
    case "e": return "e " + quoted(value.v);
    case "d": return "d " + quoted(value.v);
    case "blank": return "blank";
    default: throw new Error("unknown value type " + value.t);
  }
}

function formulaText(f) {
  let line = "formula " + f.kind;
  if (f.si !== undefined && f.si !== null) line += " si=" + f.si;
  if (f.ref !== undefined && f.ref !== null) line += " ref=" + quoted(f.ref);
  return line + " " + quoted(f.text);
}

// Only the top-left cell of a merged range is dumped.
function hiddenByMerge(cell, bounds) {
  return bounds.some((b) => cell.row >= b.r0 && cell.row <= b.r1 && cell.col >= b.c0 && cell.col <= b.c1 &&
                            !(cell.row === b.r0 && cell.col === b.c0));
}

function dumpLines(model) {
  const out = ["docconform-dump xlsx 1", `workbook date1904=${model.date1904 ? "true" : "false"} sheets=${model.sheets.length}`];
  model.sheets.forEach((sheet, index) => {
    out.push(`sheet ${index + 1} ${quoted(sheet.name)} ${sheet.state} ${sheet.kind}`);
    if (sheet.kind === "chartsheet") return;
    const merges = sheet.merges || [];
    const bounds = merges.map(rangeBounds);
    const cells = (sheet.cells || []).filter((c) => !hiddenByMerge(c, bounds));
    cells.sort((a, b) => a.row - b.row || a.col - b.col);
    for (const cell of cells) {
      out.push(`cell ${cellRef(cell.row, cell.col)} ${valueText(cell.value)}`);
      if (cell.formula) out.push(formulaText(cell.formula));
    }
    for (const m of [...merges].sort()) out.push("merge " + quoted(m));
    const comments = [...(sheet.comments || [])].sort((a, b) => a.row - b.row || a.col - b.col);
    for (const c of comments) out.push(`comment ${quoted(cellRef(c.row, c.col))} ${quoted(c.author)} ${quoted(c.text)}`);
    for (const t of sheet.tables || []) out.push(`table ${quoted(t.name)} ${quoted(t.ref)}`);
    if (sheet.charts) out.push(`charts ${sheet.charts}`);
  });
  out.push("end");
  return out;
}

// Runs an adapter's reader: dump on stdout and exit 0, or `error: <class>` and exit 1 (the
// library rejected the file), or exit 2 when the reader throws Unsupported. After the dump,
// load(file, bytes) is timed as the phase xlsx_load when the phases are asked for (phases.cjs).
class Unsupported extends Error {}

function runAdapter(read, load) {
  return serve(() => readCase(read, load));
}

async function readCase(read, load) {
  let model;
  try {
    model = await read(process.argv[2]);
  } catch (e) {
    if (e instanceof Exit) throw e;
    if (e instanceof Unsupported) {
      process.stderr.write(`unsupported: ${e.message}\n`);
      process.exit(2);
    }
    // One line: the protocol reads the class from the last line (a sax message spans several).
    process.stderr.write(`error: ${(e && e.constructor && e.constructor.name) || "Error"}: ${String(e && e.message).replace(/\s*\n\s*/g, " ")}\n`);
    process.exit(1);
  }
  emitLines(dumpLines(model));
  const bytes = fs.readFileSync(process.argv[2]);
  await timePhase("xlsx_load", async () => {
    await load(bytes);
    return bytes.length;
  });
  process.exit(0);
}

module.exports = { quoted, number, unescapeOoxml, cellRef, parseRef, rangeBounds, dumpLines, runAdapter, Unsupported };
