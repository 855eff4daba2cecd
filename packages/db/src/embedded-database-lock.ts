import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * One process at a time on an embedded (PGlite) database folder. Two processes on one folder each
 * keep their own copy of the pages and overwrite each other's writes without an error, so every
 * opener takes this lock first: `<folder>.lock`, beside the folder, naming its holder.
 */

/** What the lock file says about the process that holds the folder. */
export interface LockHolder {
  pid: number;
  /** What the holder is, for people: "the Allot server", "allot admin create-user". */
  command: string;
  /** When it took the lock (ISO). */
  since: string;
  /** Its start time in clock ticks after boot (Linux), to tell a reused pid from the holder. */
  processStart: string | null;
  /** Unique per acquisition: a process removes only its own lock file. */
  token: string;
}

export class EmbeddedDatabaseInUse extends Error {
  readonly code = "database_in_use";
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.command}). ` +
        "Stop it first, or run this command against PostgreSQL with DATABASE_URL.",
    );
    this.name = "EmbeddedDatabaseInUse";
  }
}

export interface EmbeddedDatabaseLock {
  /** The lock file. */
  readonly path: string;
  /** Removes the lock file (once; later calls do nothing). */
  release(): void;
}

/** Lock files this process holds, by path: their tokens. */
const held = new Map<string, string>();

export const lockFileOf = (dataDir: string) => `${resolve(dataDir)}.lock`;

/**
 * Takes the folder's lock for this process, or throws EmbeddedDatabaseInUse naming the live holder.
 * A lock left by a process that is gone (killed, crashed) is taken over.
 */
export function lockEmbeddedDatabase(
  dataDir: string,
  command: string,
  /** For the race test: runs between finding a lock stale and removing it. */
  options: { beforeTakeover?: () => void } = {},
): EmbeddedDatabaseLock {
  const path = lockFileOf(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockHolder = {
    pid: process.pid,
    command,
    since: new Date().toISOString(),
    processStart: procStat(process.pid)?.start ?? null,
    token: randomBytes(8).toString("hex"),
  };
  // Each turn creates the file, refuses, or removes a stale one (or waits for another process
  // removing it); a turn is lost only to another process's move.
  for (let turn = 0; turn < 50; turn++) {
    if (createExclusively(path, mine)) {
      held.set(path, mine.token);
      watchExit();
      return { path, release: () => release(path, mine.token) };
    }
    const raw = readIfPresent(path);
    if (raw === null) continue; // released meanwhile
    const holder = parseHolder(raw);
    if (holder && isLive(path, holder)) throw new EmbeddedDatabaseInUse(resolve(dataDir), holder);
    options.beforeTakeover?.();
    if (!removeStale(path, raw, mine)) sleep(5);
  }
  throw new Error(`Could not take the lock ${path}: other processes kept changing it.`);
}

/** The live process holding the folder (this one included), or null: to refuse early, before work. */
export function embeddedDatabaseHolder(dataDir: string): LockHolder | null {
  const path = lockFileOf(dataDir);
  const raw = readIfPresent(path);
  const holder = raw === null ? null : parseHolder(raw);
  return holder && isLive(path, holder) ? holder : null;
}

/**
 * Writes the content to a file of our own, then links it into place: the link is atomic and fails
 * when the lock file exists, so a reader never sees a lock file without its holder in it.
 */
function createExclusively(path: string, holder: LockHolder): boolean {
  const draft = `${path}.${holder.pid}.${holder.token}`;
  writeFileSync(draft, `${JSON.stringify(holder)}\n`);
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

function isLive(path: string, holder: LockHolder): boolean {
  // Our own pid: held by this process now, or left by an earlier one that had the same pid (a
  // container restarted: pids start again from 1).
  if (holder.pid === process.pid) return held.get(path) === holder.token;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's.
    if (errorCode(error) !== "EPERM") return false;
  }
  // Alive, unless it is a zombie (killed, not yet reaped), or the pid now belongs to a process
  // started at another time.
  const stat = procStat(holder.pid);
  if (!stat) return true;
  if (stat.state === "Z" || stat.state === "X") return false;
  return holder.processStart === null || stat.start === holder.processStart;
}

/**
 * Two processes may find the same stale lock; removing it by name could remove a fresh lock the
 * other has made in its place meanwhile. So a stale lock is removed only under a second lock file,
 * `<lock>.takeover`, and only if it still holds what was found stale: nobody else removes it then.
 * False when another process holds the takeover lock (it is done in microseconds).
 */
function removeStale(path: string, staleContent: string, mine: LockHolder): boolean {
  const guard = `${path}.takeover`;
  if (!createExclusively(guard, mine)) {
    const raw = readIfPresent(guard);
    const holder = raw === null ? null : parseHolder(raw);
    // Left by a process that died within its takeover.
    if (raw !== null && !(holder && isLive(guard, holder))) unlinkIfPresent(guard);
    return false;
  }
  try {
    if (readIfPresent(path) === staleContent) unlinkIfPresent(path);
  } finally {
    unlinkIfPresent(guard);
  }
  return true;
}

function release(path: string, token: string): void {
  if (held.get(path) !== token) return;
  held.delete(path);
  const raw = readIfPresent(path);
  if (raw !== null && parseHolder(raw)?.token === token) unlinkIfPresent(path);
}

function releaseAll(): void {
  for (const [path, token] of held) release(path, token);
}

let watching = false;
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Releases what is still held when the process exits. On SIGINT/SIGTERM a process that handles
 * the signal itself (the server, the cron loop) closes its database, which releases; one that does
 * not would die without running exit handlers, so the lock is released here and the signal raised
 * again for its usual effect.
 */
function watchExit(): void {
  if (watching) return;
  watching = true;
  process.on("exit", releaseAll);
  for (const signal of SIGNALS) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      releaseAll();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

function parseHolder(raw: string): LockHolder | null {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    // Anything else is not a lock this code wrote (process.kill(0) would even signal our group).
    if (!Number.isInteger(value.pid) || (value.pid as number) <= 0) return null;
    return {
      pid: value.pid as number,
      command: typeof value.command === "string" ? value.command : "unknown",
      since: typeof value.since === "string" ? value.since : "",
      processStart: typeof value.processStart === "string" ? value.processStart : null,
      token: typeof value.token === "string" ? value.token : "",
    };
  } catch {
    return null;
  }
}

/**
 * The state (field 3) and start time (field 22) in /proc/<pid>/stat, counted after the name in
 * parentheses, which may hold spaces; null where there is no /proc (macOS) or no such process.
 */
function procStat(pid: number): { state: string; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", start: fields[19] ?? "" };
  } catch {
    return null;
  }
}

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw error;
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
