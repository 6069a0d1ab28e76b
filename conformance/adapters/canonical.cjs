// The primitives every canonical dump is made of (conformance/SPEC.md, section 1), shared by the
// JavaScript adapters: the quoted string form (per UTF-16 code unit) and the number form; and the
// one safe way to emit a dump.
"use strict";

const { writeOut } = require("./batch.cjs");

function quoted(text) {
  let out = '"';
  for (let i = 0; i < text.length; ++i) {
    const u = text.charCodeAt(i);
    if (u === 0x22 || u === 0x5c) out += "\\" + text[i];
    else if (u >= 0x20 && u < 0x7f) out += text[i];
    else out += "\\u" + u.toString(16).toUpperCase().padStart(4, "0");
  }
  return out + '"';
}

// ECMAScript Number::toString is the SPEC's number form, except that -0 is written "-0".
function number(x) {
  return Object.is(x, -0) ? "-0" : String(x);
}

// Writes the dump's lines (ASCII) before returning, in slices of lines (one string of a large dump
// passes V8's longest string), synchronously (batch.cjs, writeOut).
function emitLines(lines) {
  for (let i = 0; i < lines.length; i += 10000) writeOut(Buffer.from(lines.slice(i, i + 10000).join("\n") + "\n", "latin1"));
}

module.exports = { quoted, number, emitLines };
