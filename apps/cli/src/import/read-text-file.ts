import { readFile } from "node:fs/promises";
import { UsageError } from "../output";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const windows1252 = new TextDecoder("windows-1252");

/**
 * A file's text: UTF-8 when it is valid UTF-8 (a byte-order mark dropped), else Windows-1252, what
 * US banks' OFX (CHARSET:1252) and spreadsheet CSV exports use. Any byte sequence reads as 1252,
 * so nothing is refused here: a misread character can only spoil a description, never an amount.
 */
export async function readTextFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UsageError(`${path}: no such file`, "file_not_found");
    if (code === "EISDIR") throw new UsageError(`${path}: is a folder, not a file`, "file_not_found");
    throw error;
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = windows1252.decode(bytes);
  }
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
