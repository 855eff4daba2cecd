import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { NotFound } from "@allot/domain/shared/errors";
import { isApiError } from "@allot/sdk/api-error";
import type { Client } from "@allot/sdk/client";
import type { FileDownload } from "@allot/sdk/file-download";
import type { TransactionFileField } from "@allot/sdk/transactions-resource";
import type { Command } from "commander";
import { type ApiOptions, openApiClient } from "../api-session";
import type { CliEnv } from "../env";
import { receiptFileName } from "../format/receipt-file-name";
import { shown } from "../format/terminal-text";
import { printJson, UsageError } from "../output";
import { act, onOne } from "./transaction-command";
import { transactionId } from "./transaction-flags";

interface ReceiptFlags extends ApiOptions {
  document?: boolean;
  output?: string;
  force?: boolean;
}

/**
 * `allot transactions receipt ID`: the receipt image (or `--document`) with the CLI's stored
 * credential, where a browser gets a 401 (decision 0057). Saved under the name it was uploaded
 * with, cleaned, in the current folder; `--output FILE` elsewhere, `--output -` to stdout. An
 * existing file is kept unless `--force`.
 */
export function registerReceiptCommand(group: Command, env: CliEnv): void {
  onOne(
    group,
    "receipt",
    "Download a transaction's receipt image (or --document) with your stored login or API key",
    [
      "allot transactions receipt TRANSACTION_ID                      # saved as its uploaded name",
      "allot transactions receipt TRANSACTION_ID --document --output invoice.pdf",
      "allot transactions receipt TRANSACTION_ID --output - | file -",
    ],
    { printsResource: false },
  )
    .option("--document", "the document (PDF) instead of the image")
    .option(
      "-o, --output <file>",
      "where to save it ('-': stdout, which must not be a terminal; default: the uploaded file name, in the current folder)",
    )
    .option("--force", "replace a file that is already there")
    .action((id: string, options: ReceiptFlags) =>
      act(options, () =>
        saveReceipt(env, options, {
          transaction: transactionId(id),
          field: options.document ? "document" : "image",
          output: options.output,
          force: Boolean(options.force),
        }),
      ),
    );
}

interface ReceiptRequest {
  transaction: string;
  field: TransactionFileField;
  /** A path, "-" for stdout, or none: the uploaded name, cleaned, in the current folder. */
  output: string | undefined;
  force: boolean;
}

/** Downloads one receipt file and saves it (or writes it to stdout): `receipt` and `download` alike. */
export async function saveReceipt(env: CliEnv, options: ApiOptions, request: ReceiptRequest): Promise<void> {
  const { transaction, field } = request;
  const toStdout = request.output === "-";
  if (toStdout && options.json)
    throw new UsageError("--json describes a saved file: give --output FILE, not -.", "usage_error");
  if (toStdout && process.stdout.isTTY)
    throw new UsageError(
      "Not writing a receipt's bytes to the terminal: give --output FILE, or redirect stdout (> receipt.jpg).",
      "usage_error",
    );
  const client = await openApiClient(env, options);
  const file = await download(client, transaction, field);
  if (toStdout) {
    await pipeline(Readable.fromWeb(file.stream), process.stdout, { end: false });
    return;
  }
  const path =
    request.output ??
    receiptFileName(file.filename, { id: transaction, field, contentType: file.contentType });
  const size = await saveAs(file, path, request.force);
  const saved = {
    id: transaction,
    field,
    path: resolve(path),
    filename: file.filename,
    content_type: file.contentType,
    size,
  };
  if (options.json) printJson(saved);
  else
    process.stdout.write(
      shown`Saved the ${field} of ${transaction} to ${path} (${size} bytes, ${file.contentType}).\n`,
    );
}

/** The file, or, when the API has none, which is missing: the file (exit 1 with how to attach one) or the transaction. */
async function download(client: Client, id: string, field: TransactionFileField): Promise<FileDownload> {
  try {
    return await client.transactions.download(id, field);
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
    // The transaction itself is the API's 404 (not yours, or no such id): that answer stands.
    const transaction = await client.call(transactionRoutes.get, { id });
    if (transaction[field] === null)
      throw new NotFound(
        `Transaction ${id} has no ${field}: attach one with \`allot transactions attach ${id} --${field} FILE\`${field === "image" && transaction.document !== null ? ", or download its document with --document" : ""}.`,
      );
    throw error;
  }
}

/**
 * Streams the download into `path`, created anew (`wx`: an existing file, even one appearing
 * meanwhile, is refused) unless `force`. A file cut short is removed, not left half written.
 */
async function saveAs(file: FileDownload, path: string, force: boolean): Promise<number> {
  const target = createWriteStream(path, { flags: force ? "w" : "wx" });
  const opened = await new Promise<NodeJS.ErrnoException | null>((done) => {
    target.once("open", () => done(null));
    target.once("error", done);
  });
  if (opened) {
    await file.stream.cancel();
    if (opened.code === "EEXIST")
      throw new UsageError(
        `${path} is already there: pass --force to replace it, or --output FILE to save elsewhere.`,
        "file_exists",
      );
    throw opened;
  }
  try {
    await pipeline(Readable.fromWeb(file.stream), target);
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return target.bytesWritten;
}
