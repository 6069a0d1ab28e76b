// pdf adapter (dump level 2, conformance/SPEC-pdf.md) built on Mozilla's pdf.js (npm pdfjs-dist,
// legacy build, pinned in package-lock.json; `npm ci` in this directory installs it).
//
// pdf.js's public API gives only the page count and version; the cross-reference table lives in
// its worker's XRef class, which the worker bundle does not export. The adapter therefore loads
// the unmodified worker bundle with one export line appended (written once into
// node_modules/.docconform/) and drives pdf.js's own document classes the way its worker does
// (checkHeader, parseStartXRef, parse without recovery):
//   xref lines / objects <- XRef.entries (offset/gen, or object stream/index for compressed ones)
//   version              <- PDFDocument.version (header, or the catalog's /Version when present)
//   pages                <- a walk of /Root /Pages through XRef.fetch (SPEC rule 8: leaves
//                           counted, a node reached twice rejects)
// pdf.js recovers broken files by re-indexing them (recoveryMode); the SPEC does not, so a parse
// that needs recovery, a fetch that fails, a diagnostic that pdf.js skipped or repaired something
// (RECOVERY below), or an object stream that inflates past the SPEC's ratio limit (1000:1 once
// above 1 MiB) rejects.
// Usage: node pdf_pdfjs.mjs FILE -> dump on stdout, exit 0; exit 1 with "error: <class>".
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(here, "node_modules", "pdfjs-dist", "legacy", "build", "pdf.worker.mjs");
const EXPORTS = "LocalPdfManager, Ref, Dict, Name, BaseStream, setVerbosityLevel";
// pdf.js's diagnostics (printed through console.log and console.warn) that mean it read something other than what
// the file's xref chain states: a looping /Prev skipped, a section it could not read and skipped
// (readXRef logs it and goes on with the next one), a /Length that cannot be read.
const RECOVERY = /skipping XRef table since it was already parsed|while reading XRef|circular reference|Bad length/;
const RATIO = 1000;
const RATIO_FLOOR = 1 << 20;

function reject(kind, why) {
  process.stderr.write(`${why}\nerror: ${kind}\n`);
  process.exit(1);
}

// The worker bundle with its internal classes exported, cached next to the installed package.
async function loadInternals() {
  const dir = path.join(here, "node_modules", ".docconform");
  const version = JSON.parse(fs.readFileSync(path.join(here, "node_modules", "pdfjs-dist", "package.json"))).version;
  const target = path.join(dir, `pdf.worker.internals-${version}.mjs`);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(dir, { recursive: true });
    const temporary = `${target}.${process.pid}`;
    fs.writeFileSync(temporary, fs.readFileSync(bundle, "utf8") + `\nexport { ${EXPORTS} };\n`);
    fs.renameSync(temporary, target);  // atomic: parallel runs never see a partial file
  }
  return import(pathToFileURL(target).href);
}

function quoted(text) {
  let out = '"';
  for (const ch of text) {
    const b = ch.charCodeAt(0);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (b >= 0x20 && b < 0x7f) out += ch;
    else out += "\\u" + b.toString(16).toUpperCase().padStart(4, "0");
  }
  return out + '"';
}

function leafPages(pdfjs, xref, catalog) {
  const root = catalog.getRaw("Pages");
  const seen = new Set();
  const stack = [root];
  let leaves = 0;
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof pdfjs.Ref) {
      if (seen.has(item.toString())) reject("format", "page node reached twice");
      seen.add(item.toString());
    } else if (item !== root) {
      reject("format", "kid is not a reference");
    }
    const node = xref.fetchIfRef(item);
    if (!(node instanceof pdfjs.Dict)) {
      ++leaves;
      continue;
    }
    const type = node.get("Type");
    const kids = node.getRaw("Kids");
    const intermediate = type instanceof pdfjs.Name ? type.name === "Pages" : Array.isArray(xref.fetchIfRef(kids));
    if (!intermediate) {
      ++leaves;
      continue;
    }
    const list = xref.fetchIfRef(kids);
    if (Array.isArray(list)) for (let i = list.length - 1; i >= 0; --i) stack.push(list[i]);
  }
  return leaves;
}

function checkObjectStreams(pdfjs, xref) {
  const streams = new Set();
  for (const entry of xref.entries) if (entry && !entry.free && !entry.uncompressed) streams.add(entry.offset);
  for (const num of streams) {
    const stream = xref.fetch(pdfjs.Ref.get(num, 0));
    if (!(stream instanceof pdfjs.BaseStream)) reject("format", `object ${num} is not an object stream`);
    const raw = stream.dict.get("Length");
    const decoded = stream.getBytes().length;
    if (Number.isInteger(raw) && decoded > RATIO_FLOOR && decoded > RATIO * Math.max(raw, 1)) reject("limit", "inflate ratio");
  }
}

async function main() {
  const pdfjs = await loadInternals();
  const diagnostics = [];
  console.log = console.warn = (...parts) => diagnostics.push(parts.join(" "));
  pdfjs.setVerbosityLevel(5);  // infos and warnings, collected above
  const data = new Uint8Array(fs.readFileSync(process.argv[2]));
  const manager = new pdfjs.LocalPdfManager({
    source: data, docId: "d", password: null, enableXfa: false, handler: null,
    evaluatorOptions: { isOffscreenCanvasSupported: false, isImageDecoderSupported: false, useWasm: false },  // no image decoders needed
  });
  const doc = manager.pdfDocument;
  const lines = [];
  let pages;
  try {
    doc.checkHeader();
    doc.parseStartXRef();
    doc.parse(false);  // no recoveryMode: a broken chain throws instead of re-indexing the file
    const xref = doc.xref;
    pages = leafPages(pdfjs, xref, xref.getCatalogObj());
    checkObjectStreams(pdfjs, xref);
    xref.entries.forEach((entry, num) => {
      if (num === 0 || !entry || entry.free) return;
      lines.push(entry.uncompressed ? `xref ${num} ${entry.gen} n ${entry.offset}` : `xref ${num} 0 c ${entry.offset} ${entry.gen}`);
    });
  } catch (e) {
    reject("format", String(e && e.message ? e.message : e));
  }
  const recovered = diagnostics.find((line) => RECOVERY.test(line));
  if (recovered) reject("format", recovered);
  const version = doc.version;
  if (!version) reject("format", "no header version");
  const out = ["docconform-dump pdf 1", "level 2", `version ${quoted(version)}`, `pages ${pages}`, `objects ${lines.length}`, ...lines];
  process.stdout.write(out.join("\n") + "\n");
  // Exit now: pdf.js leaves asynchronous work behind (a WebAssembly instantiation in Node's fetch
  // machinery) that fails under the runner's address-space cap. Writes to a pipe or file are
  // synchronous in Node on Linux, so the dump is complete.
  process.exit(0);
}

await main();
