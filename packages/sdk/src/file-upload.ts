import { createHash } from "node:crypto";
import { openAsBlob } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";

/*
 * A file a write uploads (a transaction's receipt `image` or `document`, docs/spec/extensions.md §5):
 * given as a value of the call's input, it turns the body into multipart/form-data. Every form is
 * one that can be sent again: the SDK's retries resend the same bytes under the same key.
 */

/**
 * A Blob (a `File` keeps its name; a bare Blob is named `blob`), bytes with the name to store, or a
 * file on disk, read when the request is sent (and again on a resend), named by its last path
 * segment unless `filename` says otherwise.
 */
export type FileUpload = Blob | { bytes: Uint8Array; filename: string } | { path: string; filename?: string };

/** An upload ready for a form: the bytes as a Blob, and the part's file name. */
export interface OpenedUpload {
  blob: Blob;
  filename: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

const hasOnly = (value: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

export function isFileUpload(value: unknown): value is FileUpload {
  if (value instanceof Blob) return true;
  if (!isPlainObject(value)) return false;
  if (value.bytes instanceof Uint8Array)
    return typeof value.filename === "string" && hasOnly(value, ["bytes", "filename"]);
  return (
    typeof value.path === "string" &&
    (value.filename === undefined || typeof value.filename === "string") &&
    hasOnly(value, ["path", "filename"])
  );
}

/** Whether a request body holds a file (a top-level field: that is where the contract takes them). */
export const holdsFileUpload = (body: Record<string, unknown> | undefined): boolean =>
  body !== undefined && Object.values(body).some(isFileUpload);

/**
 * The upload as a Blob and its name. A path becomes a Blob backed by the file (`fs.openAsBlob`): its
 * size is read now (a missing file throws here, before anything is sent), its bytes as they are sent.
 * A file changed between the two fails the read (a DOMException) rather than going half old.
 */
export async function openUpload(upload: FileUpload): Promise<OpenedUpload> {
  if (upload instanceof Blob)
    return { blob: upload, filename: upload instanceof File ? upload.name : "blob" };
  if ("bytes" in upload) return { blob: new Blob([new Uint8Array(upload.bytes)]), filename: upload.filename };
  // stat first: its error names the path (ENOENT, EACCES), where openAsBlob's does not.
  if (!(await stat(upload.path)).isFile()) throw new TypeError(`SDK: ${upload.path} is not a file`);
  return { blob: await openAsBlob(upload.path), filename: upload.filename ?? basename(upload.path) };
}

/** What the server's Idempotency-Key fingerprint sees of an uploaded file: its name, size and SHA-256. */
async function uploadDigest(upload: FileUpload) {
  const { blob, filename } = await openUpload(upload);
  const hash = createHash("sha256");
  for await (const chunk of blob.stream()) hash.update(chunk);
  return { filename, size: blob.size, sha256: hash.digest("hex") };
}

/**
 * The input with each file replaced by its digest, for a write journal's fingerprint: the same file
 * sent again is the same write, another file (or the same bytes under another name) is not.
 */
export async function withUploadDigests(input: unknown): Promise<unknown> {
  if (!isPlainObject(input) || !holdsFileUpload(input)) return input;
  const entries = await Promise.all(
    Object.entries(input).map(async ([name, value]) => [
      name,
      isFileUpload(value) ? await uploadDigest(value) : value,
    ]),
  );
  return Object.fromEntries(entries);
}
