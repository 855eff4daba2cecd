import type { TransactionView } from "@allot/contract/transactions/transaction";
import type { FileDownload } from "./file-download";
import type { FileUpload } from "./file-upload";
import type { GeneratedResources } from "./resources";
import type { RequestOptions } from "./transport";

/** A transaction's receipt files (docs/spec/extensions.md §5). */
export type TransactionFileField = "image" | "document";

type Generated = GeneratedResources["transactions"];

/**
 * The generated methods, whose writes take `image` and `document` as files (RouteInput: the body
 * is then sent as multipart/form-data; null removes a file), and the receipt helpers.
 */
export type TransactionsResource = Generated & {
  /** Uploads receipt files to a transaction (a PATCH of those fields only), replacing any stored. */
  attach(
    id: string,
    files: { [Field in TransactionFileField]?: FileUpload },
    options?: RequestOptions,
  ): Promise<TransactionView>;
  /** Removes receipt files from a transaction (a PATCH setting them to null). */
  detach(
    id: string,
    fields: TransactionFileField | readonly TransactionFileField[],
    options?: RequestOptions,
  ): Promise<TransactionView>;
  /**
   * A receipt file as a stream, with its type, uploaded name and size. No such file (or a
   * transaction that is not the caller's) throws ApiError 404.
   */
  download(id: string, field: TransactionFileField, options?: RequestOptions): Promise<FileDownload>;
};

/** The generated transaction methods, their writes typed to take files, and the receipt helpers. */
export function transactionsResource(generated: Generated): TransactionsResource {
  return {
    ...generated,
    async attach(id, files, options) {
      if (files.image === undefined && files.document === undefined)
        throw new TypeError("transactions.attach: pass an image, a document or both");
      return generated.update({ id, image: files.image, document: files.document }, options);
    },
    async detach(id, fields, options) {
      const names: readonly TransactionFileField[] = typeof fields === "string" ? [fields] : fields;
      if (names.length === 0)
        throw new TypeError("transactions.detach: name the image, the document or both");
      return generated.update({ id, ...Object.fromEntries(names.map((name) => [name, null])) }, options);
    },
    download(id, field, options) {
      const get = field === "image" ? generated.getTransactionImage : generated.getTransactionDocument;
      return get({ id }, options);
    },
  };
}
