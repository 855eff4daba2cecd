import { stat } from "node:fs/promises";
import type { TransactionFileField } from "@allot/sdk/transactions-resource";
import type { Command } from "commander";
import { type ApiOptions, openApiClient } from "../api-session";
import type { CliEnv } from "../env";
import type { OutputOptions } from "../format/emit";
import { UsageError } from "../output";
import { act, onOne } from "./transaction-command";
import { transactionId } from "./transaction-flags";
import { emitTransaction } from "./transaction-views";
import { registerReceiptCommand, saveReceipt } from "./transactions-receipt";

/*
 * A transaction's receipt files (docs/spec/extensions.md §5): `attach` uploads them, `detach`
 * removes them, `download` streams one to a file or stdout. `show` prints their URLs.
 */

/** --image and --document: a path each (attach), or a switch each (detach, download). */
type FileFlags = { [Field in TransactionFileField]?: string | boolean };

const FIELDS: readonly TransactionFileField[] = ["image", "document"];

/** A receipt file the user named: a readable file, checked before any request. */
export async function receiptFile(flag: string, path: string): Promise<{ path: string }> {
  const found = await stat(path).catch(() => null);
  if (!found?.isFile())
    throw new UsageError(
      `${flag} ${path}: ${found ? "not a file" : "no such file"} (give the path of a JPEG, PNG, WebP, GIF, HEIC or PDF).`,
      "invalid_file",
    );
  return { path };
}

/** The fields a command's --image/--document flags name; at least one. */
function namedFields(options: FileFlags, command: string): TransactionFileField[] {
  const fields = FIELDS.filter((field) => options[field] !== undefined);
  if (fields.length === 0)
    throw new UsageError(
      `Name a file: --image, --document or both (see \`allot transactions ${command} --help\`).`,
      "usage_error",
    );
  return fields;
}

export function registerReceiptCommands(group: Command, env: CliEnv): void {
  registerReceiptCommand(group, env);
  onOne(group, "attach", "Upload a receipt image and/or document to a transaction (replacing any there)", [
    "allot transactions attach TRANSACTION_ID --image receipt.jpg",
    "allot transactions attach TRANSACTION_ID --image receipt.jpg --document invoice.pdf --json",
  ])
    .option("--image <file>", "a JPEG, PNG, WebP, GIF or HEIC photo of the receipt")
    .option("--document <file>", "a PDF (or an image): the invoice, the bill")
    .action((id: string, options: ApiOptions & OutputOptions & { image?: string; document?: string }) =>
      act(options, async () => {
        const transaction = transactionId(id);
        const files: { [Field in TransactionFileField]?: { path: string } } = {};
        for (const field of namedFields(options, "attach"))
          files[field] = await receiptFile(`--${field}`, options[field] ?? "");
        const client = await openApiClient(env, options);
        await emitTransaction(client, await client.transactions.attach(transaction, files), options);
      }),
    );

  onOne(group, "detach", "Remove a transaction's receipt image and/or document", [
    "allot transactions detach TRANSACTION_ID --image",
    "allot transactions detach TRANSACTION_ID --image --document --json",
  ])
    .option("--image", "remove the image")
    .option("--document", "remove the document")
    .action((id: string, options: ApiOptions & OutputOptions & FileFlags) =>
      act(options, async () => {
        const transaction = transactionId(id);
        const fields = namedFields(options, "detach");
        const client = await openApiClient(env, options);
        await emitTransaction(client, await client.transactions.detach(transaction, fields), options);
      }),
    );

  onOne(
    group,
    "download",
    "Save a transaction's receipt image or document to a file, or write it to stdout",
    [
      "allot transactions download TRANSACTION_ID --image -o receipt.jpg",
      "allot transactions download TRANSACTION_ID --document > invoice.pdf",
      "allot transactions download TRANSACTION_ID --document -o invoice.pdf --json",
    ],
    { printsResource: false },
  )
    .option("--image", "the image")
    .option("--document", "the document")
    .option("-o, --output <file>", "where to save it (default: stdout, which must not be a terminal)")
    .action((id: string, options: ApiOptions & FileFlags & { output?: string }) =>
      act(options, async () => {
        const fields = namedFields(options, "download");
        const [field] = fields;
        if (!field || fields.length > 1)
          throw new UsageError("Download one file at a time: --image or --document.", "usage_error");
        // `receipt`'s path, with this command's defaults: stdout, and -o replaces a file.
        await saveReceipt(env, options, {
          transaction: transactionId(id),
          field,
          output: options.output ?? "-",
          force: true,
        });
      }),
    );
}
