// A process that takes the embedded database's lock when told, for embedded-database-lock.test.ts.
// Run with `node --import tsx`; reads commands on stdin, answers one JSON line each on stdout:
//   take <deadline ms> <lag µs> <folder> <command>
//                                           spins until the deadline, and then the lag (so that
//                                           several contenders start together or a step apart),
//                                           then tries the lock
//   release                                 releases the lock taken
// Closing stdin ends the process without releasing: the exit handler has to.
import { createInterface } from "node:readline";
import { EmbeddedDatabaseInUse, lockEmbeddedDatabase } from "../../src/embedded-database-lock.ts";

let lock = null;
const spin = (micros) => {
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < BigInt(micros) * 1000n) {
    // busy: a timer is not that precise
  }
};
const answer = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
answer({ ready: process.pid });

for await (const line of createInterface({ input: process.stdin })) {
  const [verb, deadline, lag, folder, ...command] = line.split(" ");
  if (verb === "take") {
    while (Date.now() < Number(deadline)) {
      // spin: a timer would wake the contenders a few milliseconds apart
    }
    spin(Number(lag));
    try {
      // A pause between finding the lock stale and removing it: long enough that a contender a
      // step ahead has made a fresh lock meanwhile, which a careless takeover would remove.
      lock = lockEmbeddedDatabase(folder, command.join(" "), { beforeTakeover: () => spin(2000) });
      answer({ result: "won", pid: process.pid });
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseInUse)) answer({ result: "error", message: String(error) });
      else answer({ result: "refused", pid: process.pid, holder: error.holder.pid, message: error.message });
    }
  } else if (verb === "release") {
    lock?.release();
    lock = null;
    answer({ result: "released", pid: process.pid });
  }
}
