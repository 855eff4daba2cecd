import { randomUUID } from "node:crypto";
import type { UploadedFile } from "@allot/contract/http/uploaded-file";
import type { Database, Tx } from "@allot/db/create-database";
import { attachmentRemovals } from "@allot/db/schema/attachment-removals";
import type { transactions } from "@allot/db/schema/transactions";
import { eq, inArray, sql } from "drizzle-orm";
import { ValidationFailed } from "../shared/errors";
import type { FieldErrors } from "../shared/validation";
import type { AttachmentStore } from "./attachment-store";
import { type AttachmentField, type AttachmentFile, readAttachmentFile } from "./read-attachment-file";

/** Where receipt files are taken to: the store, and the limit. */
export interface Attachments {
  store: AttachmentStore;
  /** ATTACHMENT_MAX_BYTES: the largest file accepted. */
  maxBytes: number;
}

const ATTACHMENT_FIELDS = ["image", "document"] as const satisfies readonly AttachmentField[];

/**
 * How long an uploaded file may wait for the commit that references it. A request that fails or
 * dies after storing it leaves it queued for removal this far ahead; no request runs this long.
 */
const UPLOAD_GRACE_MS = 60 * 60 * 1000;

/** A request's file fields: a file to store, null to remove the one there, absent to keep it. */
type FileFields = Partial<Record<AttachmentField, UploadedFile | null>>;

/** A field's outcome: the stored file (its key and metadata), or null when it is removed. */
type StagedFiles = Partial<Record<AttachmentField, { key: string; file: AttachmentFile } | null>>;

const keysOf = (staged: StagedFiles) => Object.values(staged).flatMap((entry) => (entry ? [entry.key] : []));

/**
 * One request's receipt files, around its database transaction (and the Idempotency-Key's
 * transaction around that, which is why the steps are the caller's to run, outside both):
 * 1. `stage`, before any transaction: every file given is checked (all fields' errors at once),
 *    its new key queued for removal a grace period ahead (committed on its own), then stored;
 * 2. in the transaction, `columns` for the row and `commit`, which takes the new keys off the queue
 *    and queues the files replaced; a deleted row's files are queued by a trigger, and `release`
 *    names them here;
 * 3. `settle`, once the outermost transaction has ended either way: every file of this request
 *    whose removal row exists is removed now (an upload nothing references, a replaced or deleted
 *    file whose release committed), best effort; the `remove-attachments` job retries the rest.
 */
export class TransactionFiles {
  #staged: StagedFiles = {};
  #released: string[] = [];
  #transactionId: string | null = null;

  constructor(
    private readonly db: Database,
    private readonly attachments: Attachments,
    private readonly now: Date,
  ) {}

  /** The transaction the staged files were stored for (a new one's id is chosen by the caller). */
  get transactionId(): string {
    if (this.#transactionId === null) throw new Error("no files staged for a transaction");
    return this.#transactionId;
  }

  async stage(transactionId: string, fields: FileFields) {
    this.#transactionId = transactionId;
    const checked: [AttachmentField, AttachmentFile | null][] = [];
    const errors: FieldErrors = {};
    for (const field of ATTACHMENT_FIELDS) {
      const value = fields[field];
      if (value === undefined) continue;
      try {
        checked.push([
          field,
          value === null ? null : await readAttachmentFile(field, value, this.attachments.maxBytes),
        ]);
      } catch (error) {
        if (!(error instanceof ValidationFailed)) throw error;
        Object.assign(errors, error.fields);
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    // A path's id may come in capitals; keys are lower case (isAttachmentKey).
    const folder = `transactions/${transactionId.toLowerCase()}`;
    const staged: StagedFiles = {};
    for (const [field, file] of checked)
      staged[field] = file && { key: `${folder}/${field}/${randomUUID()}`, file };
    this.#staged = staged;
    const keys = keysOf(staged);
    if (keys.length === 0) return;
    const notBefore = new Date(this.now.getTime() + UPLOAD_GRACE_MS);
    await this.db.insert(attachmentRemovals).values(keys.map((key) => ({ key, notBefore })));
    await Promise.all(
      Object.values(staged).map((entry) =>
        entry ? this.attachments.store.put(entry.key, entry.file.bytes, entry.file.contentType) : undefined,
      ),
    );
  }

  /** The fields given: `image`, `document` or both. */
  get fields(): AttachmentField[] {
    return ATTACHMENT_FIELDS.filter((field) => this.#staged[field] !== undefined);
  }

  /** The row's columns for the fields given: a new file's, or all null for a removed one. */
  columns(): Partial<typeof transactions.$inferInsert> {
    const { image, document } = this.#staged;
    const columns: Partial<typeof transactions.$inferInsert> = {};
    if (image !== undefined)
      Object.assign(columns, {
        imageKey: image?.key ?? null,
        imageName: image?.file.name ?? null,
        imageContentType: image?.file.contentType ?? null,
        imageSize: image?.file.size ?? null,
        imageWidth: image?.file.width ?? null,
        imageHeight: image?.file.height ?? null,
      });
    if (document !== undefined)
      Object.assign(columns, {
        documentKey: document?.key ?? null,
        documentName: document?.file.name ?? null,
        documentContentType: document?.file.contentType ?? null,
        documentSize: document?.file.size ?? null,
      });
    return columns;
  }

  /**
   * In the transaction that writes `columns()`: takes the staged keys off the removal queue (they
   * are referenced now) and queues `replaced` (the row's keys before), so the commit decides both.
   */
  async commit(tx: Tx, replaced: (string | null)[]) {
    const keys = keysOf(this.#staged);
    if (keys.length > 0) {
      const claimed = await tx
        .delete(attachmentRemovals)
        .where(inArray(attachmentRemovals.key, keys))
        .returning({ key: attachmentRemovals.key });
      // Only past the grace period, and then the file may be gone: never reference it.
      if (claimed.length !== keys.length) throw new Error("an uploaded file was removed before its commit");
    }
    const queued = replaced.filter((key): key is string => key !== null);
    if (queued.length > 0)
      await tx
        .insert(attachmentRemovals)
        .values(queued.map((key) => ({ key })))
        .onConflictDoUpdate({
          target: attachmentRemovals.key,
          set: { notBefore: sql`least(${attachmentRemovals.notBefore}, excluded.not_before)` },
        });
    this.release(queued);
  }

  /** Files queued for removal in the transaction (a delete's trigger): removed by `settle`. */
  release(keys: (string | null)[]) {
    for (const key of keys) if (key !== null) this.#released.push(key);
  }

  /**
   * After the outermost transaction, committed or rolled back: removes this request's files that
   * are queued (never one a row references), best effort. Never throws: the job retries.
   */
  async settle() {
    const keys = [...keysOf(this.#staged), ...this.#released];
    if (keys.length === 0) return;
    const queued = await this.db
      .select({ key: attachmentRemovals.key })
      .from(attachmentRemovals)
      .where(inArray(attachmentRemovals.key, keys))
      .catch(() => []);
    for (const { key } of queued) {
      try {
        await this.attachments.store.remove(key);
        await this.db.delete(attachmentRemovals).where(eq(attachmentRemovals.key, key));
      } catch {
        // Left queued: the remove-attachments job retries with backoff.
      }
    }
  }
}

/** The keys of a transaction's stored files. */
export const storedKeys = (row: { imageKey: string | null; documentKey: string | null }) => [
  row.imageKey,
  row.documentKey,
];
