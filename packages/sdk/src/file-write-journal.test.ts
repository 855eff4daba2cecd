import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FileWriteJournalOptions, fileWriteJournal } from "./file-write-journal";
import type { JournaledWrite } from "./write-journal";

/*
 * The file-backed write journal on a real file: what an entry holds and when it goes, which
 * earlier attempt's key is given again (unanswered, not under way, young enough, the same write),
 * and a file that is corrupt or cannot be written. How a client uses it: write-journal.test.ts.
 */

let folder: string;
let path: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-journal-"));
  path = join(folder, "state", "journal.json");
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const write = (fingerprint: string): JournaledWrite => ({
  fingerprint,
  method: "POST",
  routePath: "/v1/internal-transactions/",
  path: "/v1/internal-transactions/",
});
const TRANSFER = write("f".repeat(64));
const entries = async () =>
  (JSON.parse(await readFile(path, "utf8")) as { entries: Record<string, unknown>[] }).entries;
const journalFile = async (text: string) => {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
};
const exists = () =>
  stat(path).then(
    () => true,
    () => false,
  );

/** A journal whose resumes and warnings are kept for the test to read. */
function journal(options: FileWriteJournalOptions = {}) {
  const resumed: string[] = [];
  const warnings: string[] = [];
  const opened = fileWriteJournal(path, {
    onResume: (w, sentAt) => resumed.push(`${w.method} ${w.path} ${sentAt.toISOString()}`),
    onWarning: (message) => warnings.push(message),
    ...options,
  });
  return Object.assign(opened, { resumed, warnings });
}

describe("an entry", () => {
  it("is recorded, owner-only, before the write leaves, and goes once the write is settled", async () => {
    const now = new Date("2026-03-01T14:02:00.000Z");
    const j = journal({ now: () => now });
    expect(await j.begin(TRANSFER, "key-1")).toBe("key-1");
    expect(await entries()).toEqual([
      {
        fingerprint: TRANSFER.fingerprint,
        key: "key-1",
        sent_at: "2026-03-01T14:02:00.000Z",
        pid: process.pid,
      },
    ]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await j.end(TRANSFER, "key-1", true);
    expect(await exists()).toBe(false);
    expect(j.warnings).toEqual([]);
  });

  it("stays when the write was not settled, and its key goes with the same write next time", async () => {
    const sentAt = new Date("2026-03-01T14:02:00.000Z");
    const first = journal({ now: () => sentAt });
    await first.begin(TRANSFER, "key-1");
    await first.end(TRANSFER, "key-1", false);
    expect(await entries()).toHaveLength(1);

    const later = new Date("2026-03-01T20:00:00.000Z");
    const next = journal({ now: () => later });
    expect(await next.begin(TRANSFER, "key-2")).toBe("key-1");
    expect(next.resumed).toEqual(["POST /v1/internal-transactions/ 2026-03-01T14:02:00.000Z"]);
    // Its time is the first send's: the bound counts from there.
    expect(await entries()).toEqual([
      expect.objectContaining({ key: "key-1", sent_at: sentAt.toISOString() }),
    ]);
    await next.end(TRANSFER, "key-1", true);
    expect(await exists()).toBe(false);
  });

  it("never gives its key to another write", async () => {
    const j = journal();
    await j.begin(TRANSFER, "key-1");
    await j.end(TRANSFER, "key-1", false);
    const other = write("e".repeat(64));
    expect(await j.begin(other, "key-2")).toBe("key-2");
    expect(j.resumed).toEqual([]);
    expect((await entries()).map((e) => e.key)).toEqual(["key-1", "key-2"]);
  });
});

describe("a write under way", () => {
  it("keeps its key to itself: the same write sent meanwhile in this process gets a fresh one", async () => {
    const j = journal();
    const [a, b] = await Promise.all([j.begin(TRANSFER, "key-1"), j.begin(TRANSFER, "key-2")]);
    expect([a, b]).toEqual(["key-1", "key-2"]);
    // Through another journal object on the same file too.
    expect(await journal().begin(TRANSFER, "key-3")).toBe("key-3");
    expect((await entries()).map((e) => e.key)).toEqual(["key-1", "key-2", "key-3"]);
  });

  it("in another process is left alone while that process lives, and taken over once it is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const sent_at = new Date().toISOString();
    const other = write("e".repeat(64));
    await journalFile(
      JSON.stringify({
        version: 1,
        entries: [
          { fingerprint: TRANSFER.fingerprint, key: "live-key", sent_at, pid: process.ppid },
          { fingerprint: other.fingerprint, key: "dead-key", sent_at, pid: gone },
        ],
      }),
    );
    const j = journal();
    expect(await j.begin(TRANSFER, "key-1")).toBe("key-1");
    expect(await j.begin(other, "key-2")).toBe("dead-key");
    expect(j.resumed).toHaveLength(1);
    expect(await entries()).toEqual([
      expect.objectContaining({ key: "live-key", pid: process.ppid }),
      expect.objectContaining({ key: "dead-key", pid: process.pid }),
      expect.objectContaining({ key: "key-1", pid: process.pid }),
    ]);
  });
});

describe("bounds", () => {
  it("does not resend a key older than 23 hours, and drops it on the next write", async () => {
    let now = new Date("2026-03-01T14:00:00.000Z");
    const j = journal({ now: () => now });
    await j.begin(TRANSFER, "key-1");
    await j.end(TRANSFER, "key-1", false);
    now = new Date("2026-03-02T12:59:00.000Z");
    expect(await j.begin(TRANSFER, "key-2")).toBe("key-1");
    await j.end(TRANSFER, "key-1", false);
    now = new Date("2026-03-02T13:00:00.000Z");
    expect(await j.begin(TRANSFER, "key-3")).toBe("key-3");
    expect(j.resumed).toHaveLength(1);
    expect((await entries()).map((e) => e.key)).toEqual(["key-3"]);
  });

  it("keeps the newest entries only", async () => {
    let minute = 0;
    const j = journal({ maxEntries: 3, now: () => new Date(Date.UTC(2026, 2, 1, 14, minute++)) });
    for (const n of [1, 2, 3, 4, 5]) {
      await j.begin(write(String(n).repeat(64)), `key-${n}`);
      await j.end(write(String(n).repeat(64)), `key-${n}`, false);
    }
    expect((await entries()).map((e) => e.key)).toEqual(["key-3", "key-4", "key-5"]);
  });
});

describe("a journal it cannot use", () => {
  it.each([
    ["not JSON", "{ half a fi"],
    ["JSON of another shape", JSON.stringify({ entries: [{ key: "k" }] })],
  ])("is ignored with a warning when it is %s, and replaced on the next write", async (_what, text) => {
    await journalFile(text);
    const j = journal();
    expect(await j.begin(TRANSFER, "key-1")).toBe("key-1");
    expect(j.warnings).toEqual([`${path} is not a write journal: ignored, and replaced on the next write`]);
    expect((await entries()).map((e) => e.key)).toEqual(["key-1"]);
  });

  it("lets the write go with its fresh key when the file cannot be read, leaving it alone", async () => {
    await writeFile(dirname(path), "a file where the folder should be");
    const j = journal();
    expect(await j.begin(TRANSFER, "key-1")).toBe("key-1");
    await j.end(TRANSFER, "key-1", true);
    expect(j.warnings).toEqual([
      expect.stringMatching(/^cannot read the write journal .*journal\.json \(.*\): writes are not resumed$/),
    ]);
    expect(await readFile(dirname(path), "utf8")).toBe("a file where the folder should be");
  });

  it("lets the write go with its fresh key when the file cannot be written, warning once", async () => {
    // The temporary file written before the rename is taken by a folder.
    await mkdir(`${path}.${process.pid}.tmp`, { recursive: true });
    const j = journal();
    for (const key of ["key-1", "key-2"]) {
      expect(await j.begin(TRANSFER, key)).toBe(key);
      await j.end(TRANSFER, key, false);
    }
    expect(j.warnings).toEqual([
      expect.stringMatching(
        /^cannot write the write journal .*journal\.json \(.*\): this write is not resumable$/,
      ),
    ]);
    expect(await exists()).toBe(false);
  });
});
