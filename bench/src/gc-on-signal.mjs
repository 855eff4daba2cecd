import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/*
 * Loaded into an API process the bench starts (`--import`, before its entry): SIGUSR2 runs a full
 * garbage collection, then writes process.memoryUsage() to liveMemoryFile(pid), so the bench reads
 * the memory the process keeps rather than the garbage it has not collected yet. Nothing else in
 * the process changes. Plain JavaScript: the API runs built, without tsx's loader (which alone
 * would add ~200 MB to its memory).
 */

setFlagsFromString("--expose-gc");
// The flag only takes effect in a context made after it is set.
const collectGarbage = runInNewContext("gc");
process.on("SIGUSR2", () => {
  collectGarbage();
  writeFileSync(liveMemoryFile(process.pid), JSON.stringify(process.memoryUsage()));
});

/** Where a process's memory after its collection is written (process-memory.ts reads it). */
export const liveMemoryFile = (pid) => join(tmpdir(), `allot-bench-memory-${pid}.json`);
