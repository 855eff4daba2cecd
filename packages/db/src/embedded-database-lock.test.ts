import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EmbeddedDatabaseInUse,
  embeddedDatabaseHolder,
  lockEmbeddedDatabase,
  lockFileOf,
} from "./embedded-database-lock";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const contenderScript = fileURLToPath(new URL("../test/testing/lock-contender.mjs", import.meta.url));
// Real processes under tsx: about a second each to start on a busy machine.
const SLOW = { timeout: 60_000 };
// Rounds of the race (LOCK_ROUNDS=1000 to hammer it): a careless takeover fails within a few.
const ROUNDS = Number(process.env.LOCK_ROUNDS ?? 50);

let folder: string;
let dataDir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-lock-"));
  dataDir = join(folder, "pglite");
});
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill();
  await rm(folder, { recursive: true, force: true });
});

const lockFile = () => JSON.parse(readFileSync(lockFileOf(dataDir), "utf8"));
const writeLockFile = (content: unknown) =>
  writeFileSync(lockFileOf(dataDir), typeof content === "string" ? content : JSON.stringify(content));

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  return child.pid as number;
}

interface Answer {
  ready?: number;
  result?: "won" | "refused" | "released" | "error";
  pid?: number;
  holder?: number;
  message?: string;
}

/** A process of its own that takes the lock when told (test/testing/lock-contender.mjs). */
async function startContender() {
  const child = spawn(process.execPath, ["--import", "tsx", contenderScript], { cwd: packageRoot });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Answer> => {
    const line = await lines.next();
    if (line.done) throw new Error(`the contender ended: ${stderr}`);
    return JSON.parse(line.value);
  };
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const { ready } = await next();
  return {
    pid: ready as number,
    take(deadline = 0, command = `contender ${ready}`, lagMicros = 0) {
      child.stdin.write(`take ${deadline} ${lagMicros} ${dataDir} ${command}\n`);
      return next();
    },
    release() {
      child.stdin.write("release\n");
      return next();
    },
    /** Ends its input: it runs out of work and exits without releasing. */
    end() {
      child.stdin.end();
      return exited;
    },
    signal(signal: NodeJS.Signals) {
      child.kill(signal);
      return exited;
    },
  };
}

describe("the embedded database lock, in one process", () => {
  it("writes the holder into a lock file beside the folder, refuses a second open, and releases", () => {
    const lock = lockEmbeddedDatabase(dataDir, "the Allot server");
    expect(lock.path).toBe(`${dataDir}.lock`);
    expect(lockFile()).toEqual({
      pid: process.pid,
      command: "the Allot server",
      since: expect.any(String),
      processStart: expect.stringMatching(/^\d+$/),
      token: expect.stringMatching(/^[0-9a-f]{16}$/),
    });

    // Two PGlite instances in one process would overwrite each other just the same.
    expect(() => lockEmbeddedDatabase(dataDir, "allot admin migrate")).toThrow(
      `The embedded database in ${dataDir} is in use by process ${process.pid} (the Allot server). ` +
        "Stop it first, or run this command against PostgreSQL with DATABASE_URL.",
    );
    expect(embeddedDatabaseHolder(dataDir)).toMatchObject({ pid: process.pid, command: "the Allot server" });

    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    expect(embeddedDatabaseHolder(dataDir)).toBeNull();
    lock.release(); // twice: nothing happens

    const again = lockEmbeddedDatabase(dataDir, "allot admin migrate");
    expect(lockFile().command).toBe("allot admin migrate");
    // The first handle's release cannot remove the second's lock.
    lock.release();
    expect(existsSync(again.path)).toBe(true);
    again.release();
  });

  it("takes over a lock whose process is gone", async () => {
    writeLockFile({ pid: await deadPid(), command: "killed", since: "", processStart: "1", token: "old" });
    expect(embeddedDatabaseHolder(dataDir)).toBeNull();
    const lock = lockEmbeddedDatabase(dataDir, "next");
    expect(lockFile()).toMatchObject({ pid: process.pid, command: "next" });
    lock.release();
  });

  it("takes over a lock with this process's pid that this process never took (an earlier life)", () => {
    writeLockFile({
      pid: process.pid,
      command: "before the restart",
      since: "",
      processStart: "1",
      token: "x",
    });
    const lock = lockEmbeddedDatabase(dataDir, "after the restart");
    expect(lockFile()).toMatchObject({ pid: process.pid, command: "after the restart" });
    lock.release();
  });

  it("takes over a lock whose pid now belongs to a process started at another time", () => {
    // The parent is alive, but it is not the process that wrote this (its start time differs).
    writeLockFile({ pid: process.ppid, command: "gone", since: "", processStart: "1", token: "x" });
    const lock = lockEmbeddedDatabase(dataDir, "next");
    expect(lockFile().pid).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock file it cannot read as a holder, and never signals pid 0", () => {
    for (const content of ["", "not json", '{"pid":0}', '{"pid":-1}', '{"pid":"12"}']) {
      writeLockFile(content);
      const lock = lockEmbeddedDatabase(dataDir, "next");
      expect(lockFile().pid).toBe(process.pid);
      lock.release();
    }
  });
});

describe("the embedded database lock, between processes", () => {
  it(
    "refuses while another live process holds it; its exit, even by SIGTERM, releases it; SIGKILL leaves a stale lock",
    SLOW,
    async () => {
      const holder = await startContender();
      expect(await holder.take(0, "the Allot server")).toEqual({ result: "won", pid: holder.pid });
      expect(lockFile()).toMatchObject({ pid: holder.pid, command: "the Allot server" });
      let refusal: unknown;
      try {
        lockEmbeddedDatabase(dataDir, "allot admin create-user");
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(EmbeddedDatabaseInUse);
      expect((refusal as Error).message).toBe(
        `The embedded database in ${dataDir} is in use by process ${holder.pid} (the Allot server). ` +
          "Stop it first, or run this command against PostgreSQL with DATABASE_URL.",
      );
      // SIGTERM with no handler of its own: the lock is released and the signal still ends it.
      expect(await holder.signal("SIGTERM")).toEqual({ code: null, signal: "SIGTERM" });
      expect(existsSync(lockFileOf(dataDir))).toBe(false);

      // A normal exit without a release: the exit handler removes it.
      const quiet = await startContender();
      expect((await quiet.take()).result).toBe("won");
      expect(await quiet.end()).toEqual({ code: 0, signal: null });
      expect(existsSync(lockFileOf(dataDir))).toBe(false);

      // SIGKILL runs nothing: the file stays, naming a dead process, and the next taker takes over.
      const killed = await startContender();
      expect((await killed.take()).result).toBe("won");
      await killed.signal("SIGKILL");
      expect(lockFile().pid).toBe(killed.pid);
      const lock = lockEmbeddedDatabase(dataDir, "next");
      expect(lockFile()).toMatchObject({ pid: process.pid, command: "next" });
      lock.release();
    },
  );

  it(
    "gives a stale lock to exactly one of several processes taking it at the same moment",
    SLOW,
    async () => {
      const contenders = await Promise.all([1, 2, 3, 4].map(() => startContender()));
      const stale = await deadPid();
      for (let round = 0; round < ROUNDS; round++) {
        writeLockFile({ pid: stale, command: "killed", since: "", processStart: null, token: "old" });
        const deadline = Date.now() + 30;
        // Some start together, some a step behind: where a naive takeover removes a fresh lock.
        const answers = await Promise.all(
          contenders.map((contender) =>
            contender.take(deadline, "contender", Math.floor(Math.random() * 150)),
          ),
        );
        const winners = answers.filter((answer) => answer.result === "won");
        expect(winners, JSON.stringify(answers)).toHaveLength(1);
        const winner = winners[0]?.pid;
        for (const answer of answers.filter((a) => a.result !== "won"))
          expect(answer).toMatchObject({ result: "refused", holder: winner });
        expect(lockFile().pid).toBe(winner);
        await Promise.all(contenders.map((contender) => contender.release()));
        expect(existsSync(lockFileOf(dataDir))).toBe(false);
      }
      // Nothing left behind: no drafts, no claimed stale files.
      expect(readdirSync(folder)).toEqual([]);
    },
  );
});
