// The primitives every canonical dump is made of (conformance/SPEC.md, section 1), shared by the
// JavaScript adapters: the quoted string form (per UTF-16 code unit) and the number form; and the
// one safe way to emit a dump.
"use strict";

const fs = require("node:fs");

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

// Writes the dump's lines (ASCII) to stdout before returning. Node queues writes to a pipe, and
// a queue of hundreds of megabytes ends in ENOBUFS or is cut off by process.exit(); one string of
// a large dump also passes V8's longest string. So: slices of lines, written synchronously, with
// a short wait whenever the non-blocking pipe is full.
function emitLines(lines) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < lines.length; i += 10000) {
    const bytes = Buffer.from(lines.slice(i, i + 10000).join("\n") + "\n", "latin1");
    for (let at = 0; at < bytes.length;) {
      try {
        at += fs.writeSync(1, bytes, at, bytes.length - at);
      } catch (e) {
        if (e.code !== "EAGAIN") throw e;
        Atomics.wait(pause, 0, 0, 2);
      }
    }
  }
}

module.exports = { quoted, number, emitLines };
