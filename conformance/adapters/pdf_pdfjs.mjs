// pdf adapter (formats pdf = dump level 2 and pdf3 = level 3, conformance/SPEC.md, format pdf) built on
// Mozilla's pdf.js (npm pdfjs-dist, legacy build, pinned in package-lock.json; `npm ci` in this
// directory installs it).
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
// Level 3 adds, from the same objects:
//   section lines        <- XRef.processXRefTable / processXRefStream, observed as pdf.js calls
//                           them: the offset it reads, the form, the entries each subsection
//                           header (tableState.entryCount) or /Index range announces; a table's
//                           /XRefStm, which pdf.js reads as the next section, joins its table
//   trailer, page, obj   <- XRef.topDict, the page walk with /MediaBox and /Rotate inherited,
//                           XRef.fetch of every in-use entry, written in the SPEC's value form;
//                           a stream's raw data is the bytes under its decoding filters
// pdf.js recovers broken files by re-indexing them (recoveryMode); the SPEC does not, so a parse
// that needs recovery, a fetch that fails, a diagnostic that pdf.js skipped or repaired something
// (RECOVERY below), or an object stream that inflates past the SPEC's ratio limit (1000:1 once
// above 1 MiB) rejects.
// Encrypted files: opened with the case's password (casePassword); the encrypt line from the
// cipher factory (encryptLine); a stream's digest taken of its decrypted stored bytes; pdf.js's
// PasswordException rejects ("error: password").
// Usage: node pdf_pdfjs.mjs FILE [pdf|pdf3] -> dump on stdout, exit 0; exit 1 with "error: <class>".
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import batch from "./batch.cjs";
import canonical from "./canonical.cjs";

const { Exit, serve } = batch;
// pdf.js leaves asynchronous work behind (Node's fetch machinery instantiating WebAssembly) that
// fails under the runner's 4 GiB address-space cap. A one-input run has exited by then; a batch
// process lets that one failure pass, and only that one.
process.on("unhandledRejection", (e) => {
  if (!(e instanceof RangeError && /WebAssembly/.test(e.message))) throw e;
});

const { quoted } = canonical;

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(here, "node_modules", "pdfjs-dist", "legacy", "build", "pdf.worker.mjs");
const EXPORTS = "LocalPdfManager, XRef, Ref, Dict, Name, BaseStream, DecryptStream, PasswordException, setVerbosityLevel";
// pdf.js's diagnostics (printed through console.log, console.info and console.warn) that mean it
// read something other than what the file's xref chain states: a looping /Prev skipped, a section
// it could not read and skipped (readXRef logs it and goes on with the next one), a /Length that
// cannot be read.
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
  const key = createHash("sha256").update(EXPORTS).digest("hex").slice(0, 8);
  const target = path.join(dir, `pdf.worker.internals-${version}-${key}.mjs`);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(dir, { recursive: true });
    const temporary = `${target}.${process.pid}`;
    fs.writeFileSync(temporary, fs.readFileSync(bundle, "utf8") + `\nexport { ${EXPORTS} };\n`);
    fs.renameSync(temporary, target);  // atomic: parallel runs never see a partial file
  }
  return import(pathToFileURL(target).href);
}

const INHERITED = ["MediaBox", "Rotate"];

// Leaves of the page tree in order: {ref, MediaBox, Rotate} with inherited values (raw, unresolved).
function leafPages(pdfjs, xref, catalog) {
  const root = catalog.getRaw("Pages");
  const seen = new Set();
  const stack = [{ item: root, inherited: {} }];
  const leaves = [];
  while (stack.length > 0) {
    const { item, inherited } = stack.pop();
    if (item instanceof pdfjs.Ref) {
      if (seen.has(item.toString())) reject("format", "page node reached twice");
      seen.add(item.toString());
    } else if (item !== root) {
      reject("format", "kid is not a reference");
    }
    const node = xref.fetchIfRef(item);
    const own = { ...inherited };
    if (node instanceof pdfjs.Dict) {
      for (const key of INHERITED) if (node.has(key) && node.getRaw(key) !== null) own[key] = node.getRaw(key);
    }
    if (!(node instanceof pdfjs.Dict)) {
      leaves.push({ ref: item, ...own });
      continue;
    }
    const type = node.get("Type");
    const kids = node.getRaw("Kids");
    const intermediate = type instanceof pdfjs.Name ? type.name === "Pages" : Array.isArray(xref.fetchIfRef(kids));
    if (!intermediate) {
      leaves.push({ ref: item, ...own });
      continue;
    }
    const list = xref.fetchIfRef(kids);
    if (Array.isArray(list)) for (let i = list.length - 1; i >= 0; --i) stack.push({ item: list[i], inherited: own });
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

// Records the sections pdf.js reads, newest first, by wrapping its two section readers.
function observeSections(pdfjs) {
  const sections = [];
  const proto = pdfjs.XRef.prototype;
  const readTable = proto.processXRefTable;
  proto.processXRefTable = function (parser) {
    const section = { offset: this.startXRefQueue[0], form: "table", entries: 0 };
    // pdf.js creates this state itself when absent; created here, its subsection counts are seen.
    this.tableState = new Proxy({ entryNum: 0, streamPos: parser.lexer.stream.pos, parserBuf1: parser.buf1, parserBuf2: parser.buf2 }, {
      set(target, key, value) {
        if (key === "entryCount" && Number.isInteger(value)) section.entries += value;
        target[key] = value;
        return true;
      },
    });
    const trailer = readTable.call(this, parser);
    section.xrefStm = trailer.get("XRefStm");
    sections.push(section);
    return trailer;
  };
  const readStream = proto.processXRefStream;
  proto.processXRefStream = function (stream) {
    const offset = this.startXRefQueue[0];
    // Written now: reading the entries consumes the dictionary's /Index array in place.
    const dictText = valueText(pdfjs, stream.dict);
    const index = stream.dict.get("Index") || [0, stream.dict.get("Size")];
    let entries = 0;
    for (let i = 1; i < index.length; i += 2) entries += index[i];
    const table = sections.find((s) => s.form === "table" && s.xrefStm === offset);
    if (table) {
      table.form = "hybrid";
      table.entries += entries;
    } else {
      sections.push({ offset, form: "stream", entries, dictText });
    }
    return readStream.call(this, stream);
  };
  return sections;
}

const NAME_ESCAPED = new Set("#()<>[]{}/%");

function nameText(name) {
  let out = "/";
  for (const ch of name) {
    const b = ch.charCodeAt(0);
    out += b < 0x21 || b > 0x7e || NAME_ESCAPED.has(ch) ? "#" + b.toString(16).toUpperCase().padStart(2, "0") : ch;
  }
  return out;
}

function valueText(pdfjs, v) {
  if (v === null || v === undefined) return "null";
  if (v === true || v === false) return String(v);
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return quoted(v);
  if (v instanceof pdfjs.Name) return nameText(v.name);
  if (v instanceof pdfjs.Ref) return `${v.num} ${v.gen} R`;
  if (Array.isArray(v)) return "[" + v.map((x) => valueText(pdfjs, x)).join(" ") + "]";
  if (v instanceof pdfjs.Dict) {
    const keys = [...v.getKeys()].filter((k) => v.getRaw(k) !== null && v.getRaw(k) !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return "<<" + keys.map((k) => `${nameText(k)} ${valueText(pdfjs, v.getRaw(k))}`).join(" ") + ">>";
  }
  throw new Error(`no canonical form for ${v && v.constructor ? v.constructor.name : typeof v}`);
}

function objectText(pdfjs, v) {
  if (!(v instanceof pdfjs.BaseStream)) return valueText(pdfjs, v);
  let raw = v;
  // Under every decoding filter: the bytes as stored, decrypted when the file is encrypted.
  while (raw.stream instanceof pdfjs.BaseStream && !(raw instanceof pdfjs.DecryptStream)) raw = raw.stream;
  raw.reset();
  const digest = createHash("sha256").update(raw.getBytes()).digest("hex");
  return `stream ${valueText(pdfjs, v.dict)} length ${valueText(pdfjs, v.dict.get("Length"))} sha256 ${digest}`;
}

function level3Lines(pdfjs, xref, sections, leaves) {
  const lines = sections.map((s) => `section ${s.offset} ${s.form} ${s.entries}`);
  const newest = sections[0];
  lines.push("trailer " + (newest.form === "stream" ? "stream " + newest.dictText : valueText(pdfjs, xref.topDict)));
  leaves.forEach((leaf, i) => {
    const ref = leaf.ref;
    lines.push(`page ${i + 1} ${ref.num} ${ref.gen} mediabox ${valueText(pdfjs, xref.fetchIfRef(leaf.MediaBox ?? null))}` +
               ` rotate ${valueText(pdfjs, xref.fetchIfRef(leaf.Rotate ?? null))}`);
  });
  xref.entries.forEach((entry, num) => {
    if (num === 0 || !entry || entry.free) return;
    const gen = entry.uncompressed ? entry.gen : 0;
    lines.push(`obj ${num} ${gen} ${objectText(pdfjs, xref.fetch(pdfjs.Ref.get(num, gen)))}`);
  });
  return lines;
}

// The case's password (conformance/SPEC.md, format pdf rule 10): PATH.password's bytes, or none.
function casePassword(file) {
  const sidecar = `${file}.password`;
  return fs.existsSync(sidecar) ? fs.readFileSync(sidecar).toString("latin1") : null;
}

// The dump's encrypt line from pdf.js's cipher factory: /V, /R, the key's length, the methods of
// /StmF and /StrF (RC4 before /V 4, which has no crypt filters).
function encryptLine(encrypt) {
  const v = encrypt.dict.get("V");
  const method = (name) => {
    if (v < 4) return "RC4";
    const filter = name && encrypt.cf ? encrypt.cf.get(name.name) : null;
    const cfm = filter ? filter.get("CFM") : null;
    return { V2: "RC4", AESV2: "AESV2", AESV3: "AESV3" }[cfm && cfm.name] ?? "Identity";
  };
  return `encrypt Standard V ${v} R ${encrypt.dict.get("R")} bits ${encrypt.encryptionKey.length * 8} ` +
         `streams ${method(encrypt.stmf)} strings ${method(encrypt.strf)}`;
}

// One input; pdf.js's section readers and the console are restored after it, so the next input
// of a batch starts from pdf.js as it was.
async function main() {
  const pdfjs = await loadInternals();
  const proto = pdfjs.XRef.prototype;
  const saved = [proto.processXRefTable, proto.processXRefStream, console.log, console.info, console.warn];
  try {
    await dump(pdfjs);
  } finally {
    [proto.processXRefTable, proto.processXRefStream, console.log, console.info, console.warn] = saved;
  }
}

async function dump(pdfjs) {
  const diagnostics = [];
  console.log = console.info = console.warn = (...parts) => diagnostics.push(parts.join(" "));
  pdfjs.setVerbosityLevel(5);  // infos and warnings, collected above
  const level = process.argv[3] === "pdf3" ? 3 : 2;
  const sections = observeSections(pdfjs);
  const data = new Uint8Array(fs.readFileSync(process.argv[2]));
  const manager = new pdfjs.LocalPdfManager({
    source: data, docId: "d", password: casePassword(process.argv[2]), enableXfa: false, handler: null,
    evaluatorOptions: { isOffscreenCanvasSupported: false, isImageDecoderSupported: false, useWasm: false },  // no image decoders needed
  });
  const doc = manager.pdfDocument;
  const lines = [];
  let leaves;
  try {
    doc.checkHeader();
    doc.parseStartXRef();
    doc.parse(false);  // no recoveryMode: a broken chain throws instead of re-indexing the file
    const xref = doc.xref;
    leaves = leafPages(pdfjs, xref, xref.getCatalogObj());
    checkObjectStreams(pdfjs, xref);
    xref.entries.forEach((entry, num) => {
      if (num === 0 || !entry || entry.free) return;
      lines.push(entry.uncompressed ? `xref ${num} ${entry.gen} n ${entry.offset}` : `xref ${num} 0 c ${entry.offset} ${entry.gen}`);
    });
    // One push per line: spreading 300,000 lines into push() exceeds the call-stack limit.
    if (level === 3) for (const line of level3Lines(pdfjs, xref, sections, leaves)) lines.push(line);
  } catch (e) {
    // pdf.js reports malformed input with its own exception classes; a TypeError or
    // ReferenceError is a failure of this adapter (exit 3 below), not a rejection.
    if (e instanceof TypeError || e instanceof ReferenceError || e instanceof Exit) throw e;
    reject(e instanceof pdfjs.PasswordException ? "password" : "format", String(e && e.message ? e.message : e));
  }
  const recovered = diagnostics.find((line) => RECOVERY.test(line));
  if (recovered) reject("format", recovered);
  const version = doc.version;
  if (!version) reject("format", "no header version");
  const objects = lines.filter((line) => line.startsWith("xref ")).length;
  const encrypted = doc.xref.encrypt ? [encryptLine(doc.xref.encrypt)] : [];
  canonical.emitLines(["docconform-dump pdf 1", `level ${level}`, `version ${quoted(version)}`, ...encrypted, `pages ${leaves.length}`,
                       `objects ${objects}`]);
  canonical.emitLines(lines);
  // Exit now: pdf.js leaves asynchronous work behind (a WebAssembly instantiation in Node's fetch
  // machinery) that fails under the runner's address-space cap; the dump is already written.
  process.exit(0);
}

// An adapter failure is not a rejection: Node's exit status 1 for an uncaught error would read as one.
serve(main, (e) => {
  process.stderr.write(`adapter failure: ${e && e.stack ? e.stack : e}\n`);
  return 3;
});
