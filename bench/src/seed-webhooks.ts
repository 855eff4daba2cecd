import { randomBytes } from "node:crypto";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { createDatabase, type Database, type DatabaseOptions } from "@allot/db/create-database";
import { rowsOf } from "@allot/db/rows-of";
import { createBudget } from "@allot/domain/budgets/create-budget";
import { createInternalTransaction } from "@allot/domain/internal-transactions/create-internal-transaction";
import { secretVault } from "@allot/domain/secrets/secret-vault";
import type { Actor } from "@allot/domain/shared/actor";
import { aBank, anAccount, anOwner } from "@allot/domain/testing/fixtures";
import { asUser } from "@allot/domain/testing/use-case-context";
import { createWebhook } from "@allot/domain/webhooks/create-webhook";
import { sql } from "drizzle-orm";

/**
 * The bench API processes' SECRETS_KEY (run-bench.ts's apiEnv): the webhooks seeded here are sealed
 * with it, so those processes can sign with their secrets. One per run.
 */
export const BENCH_SECRETS_KEY = randomBytes(48).toString("base64url");

/** The bench's receiver is on loopback over http: the policy the bench's API processes run with. */
const LOOPBACK_POLICY = { allowHttp: true, allowPrivate: true } as const;
/** Each change moves this much between an account's two budgets, back and forth. */
const TRANSFER_AMOUNT = "1.00";
/** The changes are made on this many accounts at once (each transfer locks its account), to queue faster. */
const ACCOUNTS = 4;

interface SeededWebhook {
  id: string;
  /** Its URL's path at the receiver, which tells the webhooks' requests apart. */
  path: string;
  secret: string;
}

export interface QueuedOutbox {
  owner: { email: string; password: string };
  webhooks: SeededWebhook[];
  /** Deliveries pending in the outbox: webhooks × changes. */
  queued: number;
  seedMs: number;
}

/**
 * An outbox of `webhooks × changes` pending deliveries, made with no sender running: one owner
 * with four accounts, `webhooks` webhooks of that owner for all their accounts, subscribed to `*`
 * (each at its own path of the receiver), then `changes` transfers between an account's
 * Unallocated budget and a Goal, the accounts' in parallel, through the use cases the API calls:
 * each transfer's event and its deliveries are written by recordEvent in the transfer's
 * transaction as in production. Migrates the database first (an embedded one is new).
 */
export async function seedQueuedOutbox(
  database: DatabaseOptions,
  options: { receiverUrl: string; webhooks: number; changes: number },
): Promise<QueuedOutbox> {
  const started = performance.now();
  const handle = await createDatabase(database, "the webhooks bench's seed");
  try {
    await handle.migrate();
    const { db } = handle;
    const owner = await anOwner(db, { email: "webhooks@bench.example" });
    const bank = await aBank(db, { name: "Webhooks Bench Bank" });
    const accounts = [];
    for (let n = 0; n < ACCOUNTS; n++) accounts.push(await accountWithTwoBudgets(db, owner.actor, bank.id));
    const webhooks: SeededWebhook[] = [];
    const services = {
      webhookPolicy: LOOPBACK_POLICY,
      vault: secretVault({ key: BENCH_SECRETS_KEY, previousKey: null }),
    };
    for (let n = 1; n <= options.webhooks; n++) {
      const path = `/throughput/${n}`;
      const created = await createWebhook(
        { ...asUser(db, owner.actor), services },
        webhookRoutes.create.input.parse({
          url: `${options.receiverUrl}${path}`,
          event_types: ["*"],
          description: `Webhooks bench ${n}`,
        }),
      );
      webhooks.push({ id: created.id, path, secret: created.secret });
    }
    const transfers = async ({ accountId, unallocated, goal }: TwoBudgets, count: number) => {
      for (let change = 0; change < count; change++) {
        const [from, to] = change % 2 === 0 ? [unallocated, goal] : [goal, unallocated];
        await createInternalTransaction(
          asUser(db, owner.actor),
          internalTransactionRoutes.create.input.parse({
            bank_account: accountId,
            amount: TRANSFER_AMOUNT,
            src_budget: from,
            dst_budget: to,
          }),
        );
      }
    };
    await Promise.all(
      accounts.map((account, n) =>
        transfers(account, Math.floor(options.changes / ACCOUNTS) + (n < options.changes % ACCOUNTS ? 1 : 0)),
      ),
    );
    const [pending] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from webhook_deliveries where status = 'pending'`),
    );
    const queued = options.webhooks * options.changes;
    if (pending?.n !== queued)
      throw new Error(`the outbox holds ${pending?.n} pending deliveries, expected ${queued}`);
    return {
      owner: { email: owner.email, password: owner.password },
      webhooks,
      queued,
      seedMs: performance.now() - started,
    };
  } finally {
    await handle.close();
  }
}

interface TwoBudgets {
  accountId: string;
  unallocated: string;
  goal: string;
}

/**
 * An account of `owner` holding 1,000.00 in Unallocated, and a Goal beside it that the transfers
 * fill and empty by turns (so it never completes, which would be a second event).
 */
async function accountWithTwoBudgets(db: Database, owner: Actor, bankId: string): Promise<TwoBudgets> {
  const account = await anAccount(db, owner, { bank: bankId, balance: "1000.00" });
  if (!account.unallocated_budget) throw new Error("the account has no Unallocated budget");
  const goal = await createBudget(
    asUser(db, owner),
    budgetRoutes.create.input.parse({
      name: "Holiday",
      bank_account: account.id,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500",
      funding_amount: "50",
    }),
  );
  return { accountId: account.id, unallocated: account.unallocated_budget, goal: goal.id };
}
