import type { Readable } from "node:stream";
import { UploadedFile } from "@allot/contract/http/uploaded-file";
import { Busboy, type BusboyHeaders } from "@fastify/busboy";
import type { FastifyRequest } from "fastify";

/** The bounds one multipart body is read under (see `bodyBoundsFor` in body-parsers.ts). */
export interface MultipartBounds {
  /** The whole body as sent: Content-Length is checked first, then every byte is counted. */
  maxBytes: number;
  /** File parts are taken (as UploadedFiles) only where the route says so. */
  files: boolean;
}

// More than any form of the contract needs (a splits map of 1,000 budgets travels as one JSON field).
const MAX_PARTS = 1_000;
const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_FIELD_NAME_BYTES = 200;
const MAX_PART_HEADERS = 20;
const MAX_PART_HEADER_BYTES = 16 * 1024;

class BodyTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = "request_too_large";
}

class MalformedMultipart extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_PARSE_ERROR";
}

class FilePartRefused extends Error {
  readonly statusCode = 400;
  readonly code = "file_not_accepted";
}

/**
 * A multipart/form-data body as a plain object (a repeated name becomes an array; a part typed
 * application/json is parsed), read from the stream with busboy under `bounds`. A body over any
 * bound is refused with 413 the moment it is seen, and nothing more is read: the rest of the
 * request is never buffered (fastify then closes the connection).
 */
export function readMultipartBody(
  request: FastifyRequest,
  payload: Readable,
  bounds: MultipartBounds,
): Promise<Record<string, unknown>> {
  const tooLarge = `Request body is too large: at most ${bounds.maxBytes} bytes.`;
  if (Number(request.headers["content-length"]) > bounds.maxBytes)
    return Promise.reject(new BodyTooLarge(tooLarge));

  return new Promise((resolve, reject) => {
    const body: Record<string, unknown> = {};
    let received = 0;
    let settled = false;
    const parser = Busboy({
      headers: request.headers as BusboyHeaders,
      limits: {
        parts: MAX_PARTS,
        fieldSize: MAX_FIELD_BYTES,
        fileSize: bounds.maxBytes,
        headerPairs: MAX_PART_HEADERS,
        headerSize: MAX_PART_HEADER_BYTES,
      },
    });

    const stop = () => {
      settled = true;
      payload.off("data", count);
      payload.unpipe(parser);
    };
    const fail = (error: Error) => {
      if (settled) return;
      stop();
      reject(error);
    };
    // Runs before busboy sees the chunk (listening first), so an over-limit chunk is never parsed.
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > bounds.maxBytes) fail(new BodyTooLarge(tooLarge));
    };
    const add = (name: string, value: unknown) => {
      if (Buffer.byteLength(name) > MAX_FIELD_NAME_BYTES)
        return fail(new BodyTooLarge(`A field name is too long: at most ${MAX_FIELD_NAME_BYTES} bytes.`));
      // Names such as __proto__ or constructor would reach the object's prototype.
      if (name in Object.prototype)
        return fail(new MalformedMultipart(`The field name "${name}" is not allowed.`));
      const present = body[name];
      body[name] =
        present === undefined ? value : Array.isArray(present) ? [...present, value] : [present, value];
    };

    parser.on("field", (name, value, nameTruncated, valueTruncated, _encoding, mimeType) => {
      if (nameTruncated || valueTruncated || Buffer.byteLength(name) > MAX_FIELD_NAME_BYTES)
        return fail(new BodyTooLarge(`A field is too large: at most ${MAX_FIELD_BYTES} bytes a field.`));
      if (!mimeType.startsWith("application/json")) return add(name, value);
      try {
        add(name, JSON.parse(value));
      } catch {
        fail(new MalformedMultipart(`The field "${name}" is not valid JSON.`));
      }
    });
    parser.on("file", (name, stream, filename) => {
      if (!bounds.files) {
        stream.resume();
        return fail(new FilePartRefused(`This endpoint takes no file parts ("${name}").`));
      }
      // The one buffered copy of the file; its declared name goes along (a download's name).
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => add(name, new UploadedFile(filename ?? "", Buffer.concat(chunks))));
    });
    for (const limit of ["partsLimit", "fieldsLimit", "filesLimit"] as const)
      parser.on(limit, () => fail(new BodyTooLarge(`Too many parts: at most ${MAX_PARTS}.`)));
    parser.on("error", (error: Error) => {
      // An empty body is an empty form, as with the other encodings.
      if (received === 0 && !settled) {
        stop();
        return resolve({});
      }
      fail(new MalformedMultipart(`Malformed multipart body: ${error.message}`));
    });
    parser.on("finish", () => {
      if (settled) return;
      stop();
      resolve(body);
    });
    payload.on("error", fail);
    payload.on("data", count);
    payload.pipe(parser);
  });
}
