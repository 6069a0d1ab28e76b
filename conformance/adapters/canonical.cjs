// The primitives every canonical dump is made of (conformance/SPEC.md, section 1), shared by the
// JavaScript adapters: the quoted string form (per UTF-16 code unit) and the number form.
"use strict";

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

module.exports = { quoted, number };
