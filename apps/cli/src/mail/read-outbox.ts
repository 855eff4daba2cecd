import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

/** A message is a few kilobytes; anything much larger in the folder is not one the server wrote. */
const MAX_MESSAGE_BYTES = 1_000_000;
/** The most files one run reads, newest first: the folder grows with every email ever sent. */
export const MAX_FILES_READ = 10_000;

// What the `file` transport writes (packages/mail/src/mail-record.ts); html is not read.
const MessageFile = z.object({
  to: z.string(),
  from: z.string().optional(),
  subject: z.string(),
  text: z.string(),
  kind: z.string().optional(),
  created_at: z.iso.datetime({ offset: true }),
});

export interface OutboxMessage {
  /** The file's name in the folder. */
  file: string;
  created_at: string;
  to: string;
  from: string | null;
  kind: string | null;
  subject: string;
  /** The `/links/…` pages the message points to (an invitation, a password reset), in its order. */
  links: string[];
  text: string;
}

export interface OutboxRead {
  /** Oldest first, newest last. */
  messages: OutboxMessage[];
  /** Files passed over (not a message, too large, unreadable), each with why. */
  skipped: { file: string; reason: string }[];
  /** False when the folder does not exist (nothing was ever sent to it). */
  exists: boolean;
  /** Files left unread because of MAX_FILES_READ. */
  unread: number;
}

// A URL runs to the next space; the text form puts each link after "Label: ".
const LINK = /https?:\/\/[^\s<>"']+/g;

/** The message's links to Allot's emailed pages: `{PUBLIC_BASE_URL}/links/<page>/<token>`. */
const linksIn = (text: string): string[] =>
  [...text.matchAll(LINK)].map((match) => match[0]).filter((url) => /\/links\/[^/\s]+\/\S/.test(url));

/**
 * Reads the `file` transport's folder: one JSON file per message, named by its creation time so
 * the names sort in sending order. Walks the names from the newest back, keeping those `wanted`
 * accepts, until `last` are kept; returns them oldest first. Temporary files (`*.tmp`: a message
 * being written) are not messages; anything else that is not one is skipped with its reason.
 */
export async function readOutbox(
  directory: string,
  {
    wanted = () => true,
    last = MAX_FILES_READ,
  }: { wanted?: (message: OutboxMessage) => boolean; last?: number },
): Promise<OutboxRead> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { messages: [], skipped: [], exists: false, unread: 0 };
    throw error;
  }
  const newestFirst = names
    .filter((name) => name.endsWith(".json"))
    .sort()
    .reverse();
  const read: OutboxRead = { messages: [], skipped: [], exists: true, unread: 0 };
  for (const file of newestFirst.slice(0, MAX_FILES_READ)) {
    if (read.messages.length >= last) break;
    const message = await readMessage(directory, file);
    if ("reason" in message) read.skipped.push(message);
    else if (wanted(message)) read.messages.push(message);
  }
  // Short of `last` after the most files one run reads: older ones may hold more.
  if (read.messages.length < last) read.unread = Math.max(0, newestFirst.length - MAX_FILES_READ);
  read.messages.reverse();
  read.skipped.reverse();
  return read;
}

async function readMessage(
  directory: string,
  file: string,
): Promise<OutboxMessage | { file: string; reason: string }> {
  const path = join(directory, file);
  try {
    // lstat: a link in the folder is not followed (the server writes plain files only).
    const info = await lstat(path);
    if (!info.isFile()) return { file, reason: "not a plain file" };
    if (info.size > MAX_MESSAGE_BYTES)
      return { file, reason: `larger than ${MAX_MESSAGE_BYTES} bytes (${info.size})` };
    const parsed = MessageFile.safeParse(JSON.parse(await readFile(path, "utf8")));
    if (!parsed.success) return { file, reason: "not a message written by Allot (fields missing or wrong)" };
    const m = parsed.data;
    return {
      file,
      created_at: m.created_at,
      to: m.to,
      from: m.from ?? null,
      kind: m.kind ?? null,
      subject: m.subject,
      links: linksIn(m.text),
      text: m.text,
    };
  } catch (error) {
    if (error instanceof SyntaxError) return { file, reason: "not JSON" };
    // Gone between the listing and the read (someone cleaning the folder), or unreadable.
    return { file, reason: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}
