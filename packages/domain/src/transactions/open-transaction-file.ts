import type { Readable } from "node:stream";
import type { AttachmentField } from "../attachments/read-attachment-file";
import { NotFound } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { findOwnedTransaction } from "./find-owned-transaction";

/** A receipt file opened for download, with what its answer's headers say. */
interface OpenedFile {
  body: Readable;
  size: number;
  contentType: string;
  /** The name it was uploaded under (cleaned). */
  name: string;
}

/**
 * GET /transactions/{id}/image/ and …/document/: the file of one of the caller's transactions.
 * Anyone else's transaction, a transaction without that file, and a file the store no longer has
 * are all 404.
 */
export async function openTransactionFile(
  { db, actor, services }: UseCaseContext<"attachments">,
  id: string,
  field: AttachmentField,
): Promise<OpenedFile> {
  const row = await findOwnedTransaction(db, actor, id);
  const file =
    field === "image"
      ? { key: row.imageKey, contentType: row.imageContentType, name: row.imageName }
      : { key: row.documentKey, contentType: row.documentContentType, name: row.documentName };
  const missing = () => new NotFound(`This transaction has no ${field}.`);
  if (file.key === null || file.contentType === null || file.name === null) throw missing();
  const stored = await services.attachments.store.open(file.key);
  if (!stored) throw missing();
  return { ...stored, contentType: file.contentType, name: file.name };
}
