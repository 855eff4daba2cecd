// Test-only preload for the API process on the embedded engine (`node --import this-file`), used by
// the process-kill tests: before PGlite is handed the first protocol message whose text matches
// FAULT_FREEZE_AT (a case-insensitive RegExp source), it writes one `FAULT-FROZEN {json}` line to
// stderr and blocks the whole process, so the SIGKILL the test sends on seeing that line lands
// exactly there: every statement before it executed, that one and everything after did not.
// The process's own code is untouched; no other process can watch an embedded database.
import { writeSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";

const source = process.env.FAULT_FREEZE_AT;
if (source) {
  const pattern = new RegExp(source, "i");
  const original = PGlite.prototype.execProtocolRawSync;
  let frozen = false;
  PGlite.prototype.execProtocolRawSync = function (message) {
    const text = frozen ? "" : Buffer.from(message).toString("utf8");
    const match = pattern.exec(text);
    if (match) {
      frozen = true;
      const at = text.slice(match.index, match.index + 80).replace(/\s+/g, " ");
      writeSync(2, `\nFAULT-FROZEN ${JSON.stringify({ inTransaction: this.isInTransaction(), at })}\n`);
      // Two minutes at most: the test kills the process long before.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
    }
    return original.call(this, message);
  };
}
