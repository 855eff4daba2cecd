import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import type { Dispatcher } from "undici";

/** A stored file as a download route answers it (a transaction's receipt `image` or `document`). */
export interface FileDownload {
  /**
   * The bytes as they arrive. Read it to the end (or `cancel()` it): until then it holds the
   * connection. `Readable.fromWeb(stream)` gives a Node stream to pipe into a file.
   */
  stream: ReadableStream<Uint8Array>;
  /** The type the server read from the file's content (`image/png`, `application/pdf`…). */
  contentType: string;
  /** The name it was uploaded under (`filename*` of Content-Disposition, else `filename`); null without one. */
  filename: string | null;
  /** Bytes (Content-Length); null when the server did not say. */
  size: number | null;
}

/** The download of a 2xx answer, its body left unread. */
export function fileDownloadOf(response: Dispatcher.ResponseData): FileDownload {
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const length = Number(header("content-length"));
  return {
    stream: Readable.toWeb(response.body) as ReadableStream<Uint8Array>,
    contentType: header("content-type") ?? "application/octet-stream",
    filename: filenameOf(header("content-disposition")),
    size: header("content-length") !== undefined && Number.isSafeInteger(length) ? length : null,
  };
}

/**
 * The file name a Content-Disposition header gives (RFC 6266): `filename*` (RFC 8187,
 * `UTF-8''…` percent-encoded, or ISO-8859-1) when it can be read, else the plain `filename`
 * (quoted or a token). Null when there is neither.
 */
export function filenameOf(header: string | undefined): string | null {
  if (!header) return null;
  const parameters = new Map<string, string>();
  // A parameter: name=token or name="quoted \" string", after the disposition type.
  for (const match of header.matchAll(/;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
    const [, name = "", raw = ""] = match;
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw.trim();
    if (!parameters.has(name.toLowerCase())) parameters.set(name.toLowerCase(), value);
  }
  const extended = parameters.get("filename*");
  const decoded = extended === undefined ? null : decodeExtended(extended);
  return decoded ?? parameters.get("filename") ?? null;
}

/** `charset'language'percent-encoded` (RFC 8187); null when the charset is unknown or the text malformed. */
function decodeExtended(value: string): string | null {
  const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
  if (!match) return null;
  const [, charset = "", encoded = ""] = match;
  try {
    if (charset.toLowerCase() === "utf-8") return decodeURIComponent(encoded);
    if (charset.toLowerCase() === "iso-8859-1")
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
  } catch {
    // A malformed sequence: fall back to the plain filename.
  }
  return null;
}
