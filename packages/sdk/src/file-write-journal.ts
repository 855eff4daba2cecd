import { chmod, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { type JournaledWrite, WRITE_JOURNAL_MAX_AGE_HOURS, type WriteJournal } from "./write-journal";

/** One write sent and not answered yet: no credential, no body, only the request's hash. */
const EntrySchema = z.object({
  fingerprint: z.string(),
  key: z.string(),
  sent_at: z.iso.datetime(),
  /** The process that sends (or last sent) it: while that process lives, the write is under way. */
  pid: z.number().int().positive(),
});

const FileSchema = z.object({ version: z.literal(1), entries: z.array(EntrySchema) });

type Entry = z.infer<typeof EntrySchema>;

const DEFAULT_MAX_ENTRIES = 100;

export interface FileWriteJournalOptions {
  /** An unanswered write older than this is not resent, and is dropped (default 23, see WRITE_JOURNAL_MAX_AGE_HOURS). */
  maxAgeHours?: number;
  /** The most entries kept, the newest (default 100); only writes that were never answered stay. */
  maxEntries?: number;
  /** Called when a write is sent with the key of an unanswered earlier attempt, sent at `sentAt`. */
  onResume?: (write: JournaledWrite, sentAt: Date) => void;
  /** Called instead of throwing when the file cannot be read (not a journal) or written (default: process.emitWarning). */
  onWarning?: (message: string) => void;
  /** The clock (tests). */
  now?: () => Date;
}

// Per process, whichever journal objects were made for a file: the keys of the writes under way
// here (never handed to a second write at once), and one read-change-write of a file at a time.
const underWay = new Set<string>();
const fileTurns = new Map<string, Promise<unknown>>();

/**
 * A write journal kept in a JSON file (created on the first write, removed when no entry is left),
 * replaced whole through a rename, owner-only. An entry is an unanswered write's fingerprint, key,
 * time and process: another process's entry is taken over only once that process is gone. Two
 * processes writing the file at the same instant may lose one's entry: that write is then not
 * resumed (a fresh key, as without a journal), never resumed wrongly.
 */
export function fileWriteJournal(path: string, options: FileWriteJournalOptions = {}): WriteJournal {
  const file = resolve(path);
  const maxAgeMs = (options.maxAgeHours ?? WRITE_JOURNAL_MAX_AGE_HOURS) * 3_600_000;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const now = options.now ?? (() => new Date());
  const report =
    options.onWarning ?? ((message: string) => process.emitWarning(message, "WriteJournalWarning"));
  // Each problem once: a command making many writes repeats none of them.
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (!warned.has(message)) report(message);
    warned.add(message);
  };

  /**
   * The file's entries young enough to keep: none when it is missing or not a journal (it is then
   * replaced), null when it cannot be read (it is left alone, and the write goes unjournaled).
   */
  async function load(at: Date): Promise<Entry[] | null> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      warn(`cannot read the write journal ${file} (${(error as Error).message}): writes are not resumed`);
      return null;
    }
    const parsed = FileSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      warn(`${file} is not a write journal: ignored, and replaced on the next write`);
      return [];
    }
    return parsed.data.entries.filter((entry) => at.getTime() - Date.parse(entry.sent_at) < maxAgeMs);
  }

  async function save(entries: Entry[]): Promise<void> {
    try {
      if (entries.length === 0) {
        await unlink(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error;
        });
        return;
      }
      const kept = entries.sort((a, b) => a.sent_at.localeCompare(b.sent_at)).slice(-maxEntries);
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ version: 1, entries: kept }, null, 2)}\n`, {
        mode: 0o600,
      });
      await chmod(temporary, 0o600);
      await rename(temporary, file);
    } catch (error) {
      warn(
        `cannot write the write journal ${file} (${(error as Error).message}): this write is not resumable`,
      );
    }
  }

  return {
    begin: (write, freshKey) =>
      inTurn(file, async () => {
        const at = now();
        const entries = await load(at);
        if (!entries) return freshKey;
        const earlier = entries.find(
          (entry) => entry.fingerprint === write.fingerprint && !isUnderWay(entry),
        );
        if (earlier) {
          // Taken over by this process (its time kept: the bound counts from the first send).
          earlier.pid = process.pid;
          underWay.add(earlier.key);
          await save(entries);
          options.onResume?.(write, new Date(earlier.sent_at));
          return earlier.key;
        }
        underWay.add(freshKey);
        await save([
          ...entries,
          { fingerprint: write.fingerprint, key: freshKey, sent_at: at.toISOString(), pid: process.pid },
        ]);
        return freshKey;
      }),
    end: (_write, key, settled) =>
      inTurn(file, async () => {
        underWay.delete(key);
        if (!settled) return;
        const entries = await load(now());
        if (entries) await save(entries.filter((entry) => entry.key !== key));
      }),
  };
}

/** Sent by a process still running: this one's calls under way, or another live process. */
function isUnderWay(entry: Entry): boolean {
  if (entry.pid === process.pid) return underWay.has(entry.key);
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Runs `work` after every earlier piece of work on the same file, in this process. */
function inTurn<T>(file: string, work: () => Promise<T>): Promise<T> {
  const turn = (fileTurns.get(file) ?? Promise.resolve()).then(work);
  const settled = turn.catch(() => undefined);
  fileTurns.set(file, settled);
  void settled.then(() => {
    if (fileTurns.get(file) === settled) fileTurns.delete(file);
  });
  return turn;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
