import { readFile, rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { liveMemoryFile } from "./gc-on-signal.mjs";

/** One reading of a process's memory, in bytes: what it holds now, and the most it ever held. */
export interface MemoryReading {
  rss: number;
  /** VmHWM: the peak resident set since the process started (the kernel's, no sample missed). */
  highWaterMark: number;
}

const KILOBYTES = /^(VmRSS|VmHWM):\s+(\d+) kB$/gm;

/** /proc/PID/status's VmRSS and VmHWM (Linux; the bench's servers are our own children). */
async function readMemory(pid: number): Promise<MemoryReading> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const values = new Map([...status.matchAll(KILOBYTES)].map(([, name, kb]) => [name, Number(kb) * 1024]));
  const rss = values.get("VmRSS");
  const highWaterMark = values.get("VmHWM");
  if (rss === undefined || highWaterMark === undefined)
    throw new Error(`/proc/${pid}/status names no VmRSS or VmHWM`);
  return { rss, highWaterMark };
}

/**
 * Reads the process's RSS every `everyMs` until `stop`, which resolves to the readings. A reading
 * is never started before the last has finished, so a busy machine samples less often, not late.
 */
export function sampleMemory(pid: number, everyMs: number) {
  const readings: MemoryReading[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      readings.push(await readMemory(pid));
      await sleep(Math.max(0, everyMs - (performance.now() - started)));
    }
  })();
  return {
    async stop(): Promise<MemoryReading[]> {
      stopped = true;
      await done;
      // One more: the moment the work ended.
      readings.push(await readMemory(pid));
      return readings;
    },
  };
}

/** How long a full collection (and the allocator giving pages back) is given before the reading. */
const COLLECTION_MS = 1_000;

/** After a full collection: the RSS, and the live memory (JavaScript heap + buffers) the process holds. */
export interface KeptMemory extends MemoryReading {
  /**
   * heapUsed + external: what the process still references. Unlike the RSS it does not count memory
   * the allocator has freed but not given back to the system, so it grows only with what is kept.
   */
  live: number;
}

/**
 * The memory a process keeps: asks it for a full garbage collection (SIGUSR2, which gc-on-signal.mjs
 * answers in the bench's API processes), then reads its RSS and the usage it wrote.
 */
export async function keptMemory(pid: number): Promise<KeptMemory> {
  const file = liveMemoryFile(pid);
  await rm(file, { force: true });
  process.kill(pid, "SIGUSR2");
  await sleep(COLLECTION_MS);
  const usage = JSON.parse(await readFile(file, "utf8")) as NodeJS.MemoryUsage;
  await rm(file, { force: true });
  return { ...(await readMemory(pid)), live: usage.heapUsed + usage.external };
}
