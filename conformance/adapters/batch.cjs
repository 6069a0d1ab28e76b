// Batch mode of the adapter protocol (conformance/SPEC.md section 2, "Batch mode"), shared by the
// JavaScript adapters: `node ADAPTER --batch ARGS...` reads input paths on stdin, one per line, runs
// the adapter's main() on each with process.argv as `node ADAPTER INPUT ARGS...` has it, and answers
// each with a frame. Within an input, process.stdout and process.stderr writes and writeOut are the
// input's; process.exit(status) ends the input (it throws an Exit, which an adapter's catch must
// pass on); any other error is handled by `failure` as a one-input run handles it.
"use strict";
const fs = require("node:fs");
const readline = require("node:readline");

class Exit {
  constructor(status) {
    this.status = status;
  }
}

let capture = null;  // the current input's output in batch mode

// Writes bytes to a descriptor synchronously: Node's stdout pipe is non-blocking, so a full pipe
// is waited on briefly (a queue of hundreds of megabytes would end in ENOBUFS or be cut by exit).
function writeAll(fd, bytes) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let at = 0; at < bytes.length;) {
    try {
      at += fs.writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

// The dump's bytes: to stdout now, or to the current input's frame.
function writeOut(bytes) {
  if (capture) capture.out.push(Buffer.from(bytes));
  else writeAll(1, bytes);
}

function capturing(part) {
  return (chunk, encoding, done) => {
    capture[part].push(typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : Buffer.from(chunk));
    const callback = typeof encoding === "function" ? encoding : done;
    if (typeof callback === "function") process.nextTick(callback);
    return true;
  };
}

// The adapter's entry point. failure(error) writes an unexpected error on stderr and returns the
// exit status it means (default: the stack and 1, as Node does with an uncaught error).
async function serve(main, failure = (e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  return 1;
}) {
  if (process.argv[2] !== "--batch") {
    try {
      await main();
    } catch (e) {
      process.exit(failure(e));
    }
    return;
  }
  const [node, script, , ...args] = process.argv;
  const exit = process.exit;
  process.exit = (status) => {
    throw new Exit(status === undefined ? 0 : status);
  };
  process.stdout.write = capturing("out");
  process.stderr.write = capturing("err");
  for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    capture = { out: [], err: [] };
    process.argv = [node, script, line, ...args];
    let status = 0;
    try {
      await main();
    } catch (e) {
      status = e instanceof Exit ? e.status : failure(e);
    }
    const out = Buffer.concat(capture.out);
    const err = Buffer.concat(capture.err);
    capture = null;
    writeAll(1, Buffer.concat([Buffer.from(`frame ${status & 0xff} ${out.length} ${err.length}\n`), out, err, Buffer.from("end\n")]));
  }
  exit(0);
}

module.exports = { Exit, serve, writeOut };
