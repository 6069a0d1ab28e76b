#!/usr/bin/env node
// utf8 adapter: Node.js's WHATWG TextDecoder in fatal mode (a strict UTF-8 decoder).
// Accepts only well-formed UTF-8 (exit 1 "error: format" otherwise), so it confirms y_ cases.
// ignoreBOM keeps a leading U+FEFF as a character, as the dump specifies.
import { readFileSync } from "node:fs";

const bytes = readFileSync(process.argv[2]);
let text;
try {
  text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
} catch {
  process.stderr.write("error: format\n");
  process.exit(1);
}
let out = '"';
for (let i = 0; i < text.length; i++) {
  const u = text.charCodeAt(i);
  if (u >= 0x20 && u < 0x7f && u !== 0x22 && u !== 0x5c) out += text[i];
  else if (u === 0x22 || u === 0x5c) out += "\\" + text[i];
  else out += "\\u" + u.toString(16).toUpperCase().padStart(4, "0");
}
process.stdout.write(`docconform-dump utf8 1\nunits ${text.length}\ntext ${out}"\n`);
