import { createReadStream } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../output";

/*
 * What `allot api METHOD PATH [--data JSON] [--field k=v …]` is given, read and checked before any
 * request: the path below the API, the body or query from --field, the body from --data.
 */

/** The most --data the CLI reads: the API's own bound on a request body (5 MiB). */
export const MAX_DATA_BYTES = 5 * 1024 * 1024;

/**
 * PATH as the SDK takes it, below `/api`: `/v1/banks/`, `v1/banks/` and `/api/v1/banks/` alike (the
 * API's docs write the last). A URL is only accepted on the server the command talks to: the
 * request carries the profile's credential, which must never go to another host.
 */
export function apiPathOf(text: string, baseUrl: string): string {
  const given = text.trim();
  if (/[\s#]/.test(given))
    throw new UsageError(
      `'${text}' is not a path: write it without spaces or '#' (e.g. /v1/banks/).`,
      "invalid_path",
    );
  if (/^[a-z][a-z\d+.-]*:/i.test(given) || given.startsWith("//")) {
    const apiBase = new URL(`${baseUrl}/api/`);
    const url = URL.canParse(given) ? new URL(given) : null;
    if (!url || url.origin !== apiBase.origin || !url.pathname.startsWith(apiBase.pathname))
      throw new UsageError(
        `'${text}' is not on ${baseUrl}: \`allot api\` sends your credential to that server only. Give a path such as /v1/banks/ (or pass --url).`,
        "invalid_path",
      );
    return `/${url.pathname.slice(apiBase.pathname.length)}${url.search}`;
  }
  const path = given.startsWith("/") ? given : `/${given}`;
  return path === "/api" || path.startsWith("/api/") ? path.slice("/api".length) || "/" : path;
}

/**
 * `--field` words as one object: `name=Rent` a string, `amount:=12.5` raw JSON (a number, true,
 * null, a list…), as httpie writes them. A key given twice becomes a list (`type=a type=b`).
 */
export function fieldsOf(words: readonly string[]): Record<string, unknown> {
  const values = new Map<string, unknown[]>();
  for (const word of words) {
    const at = word.indexOf("=");
    const raw = at > 0 && word[at - 1] === ":";
    const key = word.slice(0, raw ? at - 1 : at);
    if (at < 0 || key === "")
      throw new UsageError(
        `'${word}' is not a field: write key=text, or key:=JSON for a number, true, null or a list (e.g. --field page_size:=5).`,
        "invalid_field",
      );
    const text = word.slice(at + 1);
    let value: unknown = text;
    if (raw) {
      try {
        value = JSON.parse(text);
      } catch {
        throw new UsageError(
          `'${word}': the value after := must be JSON, such as 12.5, true, null, "text" or [1,2].`,
          "invalid_field",
        );
      }
    }
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return Object.fromEntries([...values].map(([key, list]) => [key, list.length === 1 ? list[0] : list]));
}

/**
 * The JSON of --data: the text itself, `@file` (a path from where the command was typed) or `-`
 * (stdin). It must be an object, as every body of the API is.
 */
export async function readData(
  spec: string,
  workingDirectory: string,
  stdin: AsyncIterable<Buffer | string> = process.stdin,
): Promise<Record<string, unknown>> {
  const text =
    spec === "-"
      ? await readBounded(stdin)
      : spec.startsWith("@")
        ? await readDataFile(resolve(workingDirectory, spec.slice(1)))
        : spec;
  if (Buffer.byteLength(text) > MAX_DATA_BYTES) throw tooLarge();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--data is not JSON: ${(error as Error).message}.`, "invalid_data");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(
      "--data must be a JSON object ({…}): every body the API takes is one.",
      "invalid_data",
    );
  return value as Record<string, unknown>;
}

const tooLarge = () =>
  new UsageError(
    `--data holds more than ${MAX_DATA_BYTES / 1024 / 1024} MiB, more than the API takes.`,
    "invalid_data",
  );

async function readBounded(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_DATA_BYTES) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readDataFile(path: string): Promise<string> {
  try {
    return await readBounded(createReadStream(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR")
      throw new UsageError(`--data @${path}: no such file`, "file_not_found");
    throw error;
  }
}
