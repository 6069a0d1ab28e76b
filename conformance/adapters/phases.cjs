// Phase timings (conformance/SPEC.md section 2, "Phase timings"), shared by the JavaScript
// adapters: when $DOCCONFORM_PHASES names a file, a phase is run once untimed, then timed at
// least 5 times and more until the timed runs took 1 s in all (at most 1,000), and its median is
// appended to that file.
"use strict";

const fs = require("node:fs");

const MIN_RUNS = 5;
const MIN_SECONDS = 1.0;
const MAX_RUNS = 1000;

// run() (or the promise it returns) gives the number of bytes one run produced.
async function timePhase(name, run) {
  const file = process.env.DOCCONFORM_PHASES;
  if (!file) return;
  await run();
  const times = [];
  let total = 0;
  let bytes = 0;
  while (times.length < MIN_RUNS || (total < MIN_SECONDS && times.length < MAX_RUNS)) {
    const start = process.hrtime.bigint();
    bytes = await run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    times.push(seconds);
    total += seconds;
  }
  times.sort((a, b) => a - b);
  const middle = times.length >> 1;
  const median = times.length % 2 ? times[middle] : (times[middle - 1] + times[middle]) / 2;
  fs.appendFileSync(file, `${name} ${median.toFixed(9)} ${bytes}\n`);
}

module.exports = { timePhase };
