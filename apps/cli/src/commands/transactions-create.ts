import { TRANSACTION_TYPES } from "@allot/contract/transactions/transaction";
import { type Command, Option } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import type { CliEnv } from "../env";
import { addOutputOptions, type OutputOptions } from "../format/emit";
import { reportError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { resolveCategory } from "../resolve/category";
import { amountFlag, dateFlag } from "./transaction-flags";
import { emitTransaction } from "./transaction-views";
import { receiptFile } from "./transactions-receipts";

type TransactionType = (typeof TRANSACTION_TYPES)[number];

interface CreateOptions extends ApiOptions, OutputOptions {
  account?: string;
  amount: string;
  date: string;
  description: string;
  type?: TransactionType;
  pending?: boolean;
  postedDate?: string;
  category?: string;
  memo?: string;
  image?: string;
  document?: string;
}

/** `allot transactions create`: a transaction typed in by hand (cash, a cheque the bank has not sent). */
export function registerCreateCommand(group: Command, env: CliEnv): void {
  const command = group
    .command("create")
    .description(
      "Record a transaction by hand; its whole amount goes to Unallocated (or an auto-spend budget)",
    )
    .option("--account <name-or-id>", "the bank account (default: your default account, or your only one)")
    .requiredOption("--amount <amount>", "signed: -12.50 spends, 100 receives")
    .requiredOption("--date <date>", "the transaction date (2026-01-31 or an ISO date-time)")
    .requiredOption("--description <text>", "what it was")
    .addOption(
      new Option(
        "--type <type>",
        "the transaction type (default: signature_purchase for a debit, signature_credit for a credit)",
      ).choices(TRANSACTION_TYPES),
    )
    .option("--pending", "not posted yet (resolve it later with `allot transactions resolve`)")
    .option("--posted-date <date>", "when the bank posted it (default: the transaction date)")
    .option("--category <name-or-id>", "its category ('Group : Name', a unique name, or an id)")
    .option("--memo <text>", "a note")
    .option("--image <file>", "a photo of the receipt (JPEG, PNG, WebP, GIF or HEIC)")
    .option("--document <file>", "a PDF (or an image) to keep with it: the invoice, the bill");
  addExamples(addApiOptions(addOutputOptions(command)), [
    'allot transactions create --amount -12.50 --date 2026-01-31 --description "Farmers market"',
    'allot transactions create --account Checking --amount 40 --date 2026-02-01 --description "Cash from Sam" --category "Income : Gifts"',
    'allot transactions create --amount -60 --date 2026-02-02 --description "Cheque 1043" --type check --pending --json',
    'allot transactions create --amount -23.40 --date 2026-02-03 --description "Hardware store" --image receipt.jpg',
  ]).action((options: CreateOptions) => createTransaction(env, options));
}

async function createTransaction(env: CliEnv, options: CreateOptions): Promise<void> {
  try {
    const amount = amountFlag("--amount", options.amount);
    const date = dateFlag("--date", options.date);
    const postedDate =
      options.postedDate === undefined ? undefined : dateFlag("--posted-date", options.postedDate);
    const image = options.image === undefined ? undefined : await receiptFile("--image", options.image);
    const document =
      options.document === undefined ? undefined : await receiptFile("--document", options.document);
    const client = await openApiClient(env, options);
    const account = await resolveAccountId(client, options.account);
    const category =
      options.category === undefined ? undefined : await resolveCategory(client, options.category);
    const row = await client.transactions.create({
      bank_account: account,
      amount,
      transaction_date: date,
      posted_date: postedDate,
      // A type is required: the common card ones fit what people type in by hand.
      transaction_type: options.type ?? (amount.startsWith("-") ? "signature_purchase" : "signature_credit"),
      pending: options.pending,
      raw_description: options.description,
      category: category?.id,
      memo: options.memo,
      image,
      document,
    });
    await emitTransaction(client, row, options);
  } catch (error) {
    reportError(error, Boolean(options.json));
  }
}
