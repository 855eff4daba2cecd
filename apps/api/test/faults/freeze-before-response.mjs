// Test-only preload for the API process (`node --import this-file`), on either engine: before the
// process hands a socket the first HTTP response whose head matches FAULT_FREEZE_RESPONSE (a RegExp
// source, e.g. `^HTTP/1\.1 201`), it writes one `FAULT-FROZEN {json}` line to stderr with that
// response (status line, headers, body) and blocks the whole process, so the SIGKILL the test sends
// on seeing that line lands after the request did all its work (its transaction committed) and
// before one byte of its answer left. No statement follows a write's commit on its way to the
// answer, so the database cannot show this point; the process's own code is untouched.
import { writeSync } from "node:fs";
import { Socket } from "node:net";

const source = process.env.FAULT_FREEZE_RESPONSE;
if (source) {
  const pattern = new RegExp(source);
  const original = Socket.prototype.write;
  let frozen = false;
  Socket.prototype.write = function (chunk, ...rest) {
    const text = frozen ? "" : responseHead(chunk);
    if (text.startsWith("HTTP/") && pattern.test(text)) {
      frozen = true;
      writeSync(2, `\nFAULT-FROZEN ${JSON.stringify({ response: text })}\n`);
      // Two minutes at most: the test kills the process long before.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
    }
    return original.call(this, chunk, ...rest);
  };
}

/** The start of what is written, when it may be an HTTP response (its first write starts "HTTP/"). */
function responseHead(chunk) {
  // A response's first write carries its head, and a small body with it.
  if (typeof chunk === "string") return chunk.slice(0, 8192);
  if (!(chunk instanceof Uint8Array) || chunk[0] !== 0x48) return "";
  return Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, 8192)).toString("latin1");
}
