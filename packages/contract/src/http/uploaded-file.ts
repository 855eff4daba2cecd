import { createHash } from "node:crypto";

/**
 * A file part of a multipart body, as the server's parser hands it on: the bytes, and the name and
 * type the client declared (the name is kept for downloads; the type is never trusted). Only the
 * parser makes these, so a JSON body can never pass for an upload.
 */
export class UploadedFile {
  #digest: string | undefined;

  constructor(
    /** The part's `filename` as sent (possibly empty); bounded and cleaned before it is stored. */
    readonly filename: string,
    readonly bytes: Buffer,
  ) {}

  /**
   * What an Idempotency-Key fingerprint sees: the name, size and a digest of the bytes, not the
   * bytes themselves (serialising a Buffer as JSON costs ~4 characters a byte).
   */
  toJSON() {
    this.#digest ??= createHash("sha256").update(this.bytes).digest("hex");
    return { filename: this.filename, size: this.bytes.length, sha256: this.#digest };
  }
}
