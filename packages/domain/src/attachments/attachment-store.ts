import type { Readable } from "node:stream";

/*
 * Where receipt files live (docs/spec/extensions.md §5): a small port with two adapters in
 * packages/attachments, local disk under DATA_DIR (the default) and any S3-compatible store. The
 * database holds each file's key and metadata; the store holds only bytes.
 */

/** An object's key: `transactions/<transaction id>/<image|document>/<random id>`. */
export type AttachmentKey = string;

/** A stored file, opened for reading. */
export interface StoredAttachment {
  /** The bytes, streamed (never read whole into memory by the store). */
  body: Readable;
  /** Its length in bytes. */
  size: number;
}

export interface AttachmentStore {
  /**
   * Stores `body` under `key`, replacing nothing: every upload gets a new key. Resolves once the
   * object is durable (readable by every API instance sharing the store).
   */
  put(key: AttachmentKey, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none under `key`. */
  open(key: AttachmentKey): Promise<StoredAttachment | null>;
  /** Removes the object; a key with no object is not an error (removals are retried). */
  remove(key: AttachmentKey): Promise<void>;
}

const KEY = /^transactions\/[0-9a-f-]{36}\/(image|document)\/[0-9a-f-]{36}$/;

/** Whether `key` is one this service makes: adapters refuse any other (no path may escape). */
export const isAttachmentKey = (key: string): boolean => KEY.test(key);
