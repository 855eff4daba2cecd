import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/*
 * Loaded into an API process the bench starts (`--import`, before its entry): SIGUSR2 runs a full
 * garbage collection, so the bench reads the memory the process keeps rather than the garbage it
 * has not collected yet. Nothing else in the process changes.
 */

setFlagsFromString("--expose-gc");
// The flag only takes effect in a context made after it is set.
const collectGarbage = runInNewContext("gc") as () => void;
process.on("SIGUSR2", () => collectGarbage());
