#!/usr/bin/env node
// utf8 adapter: Node.js's WHATWG TextDecoder in fatal mode (a strict UTF-8 decoder).
// Accepts only well-formed UTF-8 (exit 1 "error: format" otherwise), so it confirms y_ cases.
// ignoreBOM keeps a leading U+FEFF as a character, as the dump specifies.
import { readFileSync } from "node:fs";

import canonical from "./canonical.cjs";

const { quoted } = canonical;

const bytes = readFileSync(process.argv[2]);
let text;
try {
  text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
} catch {
  process.stderr.write("error: format\n");
  process.exit(1);
}
process.stdout.write(`docconform-dump utf8 1\nunits ${text.length}\ntext ${quoted(text)}\n`);
