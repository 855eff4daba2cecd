import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ACTIVITY_EVENT_TYPES, ACTOR_KINDS } from "@allot/contract/activity/activity-event-types";
import { ACCOUNT_TYPES } from "@allot/contract/bank-accounts/bank-account";
import { BUDGET_TYPES, FUNDING_TYPES } from "@allot/contract/budgets/budget-kinds";
import {
  FUNDING_OCCURRENCE_KINDS,
  FUNDING_OCCURRENCE_STATUSES,
} from "@allot/contract/funding-occurrences/funding-occurrence";
import { INVITATION_STATUSES } from "@allot/contract/invitations/invitation";
import { DELIVERY_MODES, DIGEST_FREQUENCIES } from "@allot/contract/preferences/preferences";
import {
  DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SUBSCRIPTIONS,
} from "@allot/contract/webhooks/webhook";
import { getTableName, type SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, testEngines } from "../../test/testing/test-databases";
import type { DatabaseHandle } from "../create-database";
import { sqlState } from "../database-errors";
import { rowsOf } from "../rows-of";
import { accountEvents } from "./account-events";
import { bankAccounts } from "./bank-accounts";
import { budgets } from "./budgets";
import { changeTombstones, TOMBSTONE_TYPES } from "./change-tombstones";
import { EMAIL_CHANGE_STATUSES, emailChanges } from "./credential-tokens";
import { EMAIL_KINDS, emailOutbox } from "./email-outbox";
import { fundingOccurrences } from "./funding-occurrences";
import * as schema from "./index";
import { invitations } from "./invitations";
import { NOTIFICATION_KIND_NAMES, NOTIFICATION_OUTCOMES, notifications } from "./notifications";
import { CHANNEL_NAMES, channelPreferences, notificationPreferences } from "./preferences";
import { ACCOUNT_JOB_NAMES, scheduledRuns } from "./scheduled-runs";
import { webhookDeliveries, webhooks } from "./webhooks";

/** The rows every kind column's row needs to point at. */
interface World {
  userId: number;
  bankId: string;
  accountId: string;
  budgetId: string;
  webhookId: string;
  /** A user of its own, for tables keyed by user and kind. */
  newUser(): Promise<number>;
  /** A number no earlier call returned: unique tokens, dates, change numbers. */
  next(): number;
}

interface KindColumn {
  column: PgColumn;
  values: readonly string[];
  /** A statement inserting a row of its own that holds `value` (an array column: as its one element). */
  insert(world: World, value: string): Promise<SQL> | SQL;
}

const day = (world: World) => sql`date '2030-01-01' + ${world.next()}::int`;

/** Every column of the schema holding a closed set of names, with the list its CHECK is built from. */
const KIND_COLUMNS: KindColumn[] = [
  {
    column: budgets.budgetType,
    values: BUDGET_TYPES,
    insert: (w, value) => sql`insert into budgets (bank_account_id, name, budget_type, funding_type)
      values (${w.accountId}, 'Kind', ${value}, 'F')`,
  },
  {
    column: budgets.fundingType,
    values: FUNDING_TYPES,
    insert: (w, value) => sql`insert into budgets (bank_account_id, name, budget_type, funding_type)
      values (${w.accountId}, 'Kind', 'G', ${value})`,
  },
  {
    column: bankAccounts.accountType,
    values: ACCOUNT_TYPES,
    insert: (w, value) => sql`insert into bank_accounts (name, bank_id, currency, account_type)
      values ('Kind', ${w.bankId}, 'USD', ${value})`,
  },
  {
    column: invitations.status,
    values: INVITATION_STATUSES,
    insert: (w, value) => {
      const n = w.next();
      return sql`insert into invitations (token, secret_digest, bank_account_id, inviter_id, invitee_id,
          invitee_email, expires_at, status)
        values (${`token-${n}`}, ${`secret-${n}`}, ${w.accountId}, ${w.userId}, ${w.userId},
          'invitee@example.com', now(), ${value})`;
    },
  },
  {
    column: emailChanges.status,
    values: EMAIL_CHANGE_STATUSES,
    insert: (w, value) => {
      const n = w.next();
      return sql`insert into email_changes (user_id, old_email, new_email, confirm_token_digest,
          revoke_token_digest, confirm_expires_at, status)
        values (${w.userId}, 'old@example.com', 'new@example.com', ${`confirm-${n}`}, ${`revoke-${n}`},
          now(), ${value})`;
    },
  },
  {
    column: emailOutbox.kind,
    values: EMAIL_KINDS,
    insert: (_w, value) => sql`insert into email_outbox (kind, to_address, subject)
      values (${value}, 'someone@example.com', 'Subject')`,
  },
  {
    column: notifications.kind,
    values: NOTIFICATION_KIND_NAMES,
    insert: (w, value) => sql`insert into notifications (user_id, kind, payload)
      values (${w.userId}, ${value}, '{}'::jsonb)`,
  },
  {
    column: notifications.outcome,
    values: NOTIFICATION_OUTCOMES,
    insert: (w, value) => sql`insert into notifications (user_id, kind, payload, delivered_at, outcome)
      values (${w.userId}, 'funding_complete', '{}'::jsonb, now(), ${value})`,
  },
  {
    column: notificationPreferences.kind,
    values: NOTIFICATION_KIND_NAMES,
    insert: async (w, value) => sql`insert into notification_preferences (user_id, kind, delivery_mode)
      values (${await w.newUser()}, ${value}, 'digest')`,
  },
  {
    column: notificationPreferences.deliveryMode,
    values: DELIVERY_MODES,
    insert: async (w, value) => sql`insert into notification_preferences (user_id, kind, delivery_mode)
      values (${await w.newUser()}, 'funding_complete', ${value})`,
  },
  {
    column: channelPreferences.channel,
    values: CHANNEL_NAMES,
    insert: async (w, value) => sql`insert into channel_preferences (user_id, channel, digest_frequency)
      values (${await w.newUser()}, ${value}, 'daily_morning')`,
  },
  {
    column: channelPreferences.digestFrequency,
    values: DIGEST_FREQUENCIES,
    insert: async (w, value) => sql`insert into channel_preferences (user_id, channel, digest_frequency)
      values (${await w.newUser()}, 'email', ${value})`,
  },
  {
    column: scheduledRuns.job,
    values: ACCOUNT_JOB_NAMES,
    insert: (w, value) => sql`insert into scheduled_runs (job, bank_account_id, run_date)
      values (${value}, ${w.accountId}, ${day(w)})`,
  },
  {
    column: fundingOccurrences.kind,
    values: FUNDING_OCCURRENCE_KINDS,
    insert: (
      w,
      value,
    ) => sql`insert into funding_occurrences (bank_account_id, budget_id, kind, scheduled_date)
      values (${w.accountId}, ${w.budgetId}, ${value}, ${day(w)})`,
  },
  {
    column: fundingOccurrences.status,
    values: FUNDING_OCCURRENCE_STATUSES,
    insert: (
      w,
      value,
    ) => sql`insert into funding_occurrences (bank_account_id, budget_id, kind, scheduled_date,
        status)
      values (${w.accountId}, ${w.budgetId}, 'fund', ${day(w)}, ${value})`,
  },
  {
    column: changeTombstones.objectType,
    values: TOMBSTONE_TYPES,
    insert: (
      w,
      value,
    ) => sql`insert into change_tombstones (bank_account_id, change_seq, object_type, object_id)
      values (${w.accountId}, ${w.next()}, ${value}, gen_random_uuid())`,
  },
  {
    column: webhooks.eventTypes,
    values: WEBHOOK_SUBSCRIPTIONS,
    insert: (w, value) => sql`insert into webhooks (user_id, url, event_types, secret)
      values (${w.userId}, 'https://hooks.example.com/', array[${value}::text], 'secret')`,
  },
  {
    column: webhooks.disabledReason,
    values: WEBHOOK_DISABLED_REASONS,
    insert: (
      w,
      value,
    ) => sql`insert into webhooks (user_id, url, event_types, secret, enabled, disabled_reason)
      values (${w.userId}, 'https://hooks.example.com/', '{*}', 'secret', false, ${value})`,
  },
  {
    column: webhookDeliveries.status,
    values: DELIVERY_STATUSES,
    insert: (w, value) => sql`insert into webhook_deliveries (webhook_id, event_id, event_type, body, status)
      values (${w.webhookId}, gen_random_uuid(), 'webhook.test', '{}', ${value})`,
  },
  {
    column: webhookDeliveries.eventType,
    values: WEBHOOK_EVENT_TYPES,
    insert: (w, value) => sql`insert into webhook_deliveries (webhook_id, event_id, event_type, body)
      values (${w.webhookId}, gen_random_uuid(), ${value}, '{}')`,
  },
  {
    column: accountEvents.type,
    values: ACTIVITY_EVENT_TYPES,
    insert: (
      w,
      value,
    ) => sql`insert into account_events (bank_account_id, type, actor_kind, request_id, summary,
        data)
      values (${w.accountId}, ${value}, 'system', 'request', 'Summary', '{}'::jsonb)`,
  },
  {
    column: accountEvents.actorKind,
    values: ACTOR_KINDS,
    insert: (
      w,
      value,
    ) => sql`insert into account_events (bank_account_id, type, actor_kind, request_id, summary,
        data)
      values (${w.accountId}, 'bank_account.created', ${value}, 'request', 'Summary', '{}'::jsonb)`,
  },
];

/** Columns whose names say kind or status but whose values are not ours to list, and why. */
const OPEN_COLUMNS: Record<string, string> = {
  "transactions.transaction_type":
    "the bank's own word as an import gives it (clients may send only the contract's)",
  "transactions.image_content_type": "the media type sniffed from the uploaded file",
  "transactions.document_content_type": "the media type sniffed from the uploaded file",
  "webhooks.last_failure_reason": "free text: the failed attempt's error",
};

const KIND_NAME = /(^|_)(kind|status|type|types|mode|channel|job|outcome|frequency|reason)$/;
const nameOf = (column: PgColumn) => `${getTableName(column.table)}.${column.name}`;
/** The constraint a kind column's CHECK is named: `<table>_<column>`. */
const checkOf = (column: PgColumn) => `${getTableName(column.table)}_${column.name}`;

/** Values no list holds: empty, unknown, and a listed one in the other case. */
const outside = (values: readonly string[]) => {
  const first = values[0] as string;
  return ["", "z", first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase()];
};

describe("kind columns", () => {
  it("every text column named for a kind or status is held by a CHECK named for it, or is open", () => {
    // The schema's index exports its tables and nothing else.
    const found = (Object.values(schema) as PgTable[]).flatMap((table) => {
      const { name, columns, checks } = getTableConfig(table);
      return columns
        .filter((column) => ["string", "array"].includes(column.dataType) && KIND_NAME.test(column.name))
        .map((column) => ({ column: `${name}.${column.name}`, checks: checks.map((check) => check.name) }));
    });
    const listed = new Map(KIND_COLUMNS.map(({ column }) => [nameOf(column), checkOf(column)]));
    for (const { column, checks } of found) {
      if (column in OPEN_COLUMNS) continue;
      expect(listed.has(column), `${column}: a kind column without its list here`).toBe(true);
      expect(checks, column).toContain(listed.get(column));
    }
    expect(found.map(({ column }) => column).sort()).toEqual(
      [...listed.keys(), ...Object.keys(OPEN_COLUMNS)].sort(),
    );
  });
});

const MIGRATIONS = new URL("../../drizzle/", import.meta.url);

/** The statements of the migration that added the kind columns' CHECKs, as drizzle runs them. */
async function kindChecksMigration(): Promise<string[]> {
  const name = (await readdir(fileURLToPath(MIGRATIONS))).find((file) => file.endsWith("_kind_checks.sql"));
  if (!name) throw new Error("no *_kind_checks.sql migration");
  const text = await readFile(new URL(name, MIGRATIONS), "utf8");
  return text
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

async function worldIn(handle: DatabaseHandle): Promise<World> {
  let counter = 0;
  const next = () => ++counter;
  const one = async <T>(statement: SQL) => rowsOf<T>(await handle.db.execute(statement))[0] as T;
  const newUser = async () =>
    (await one<{ id: number }>(sql`insert into users (username) values (${`user-${next()}`}) returning id`))
      .id;
  const userId = await newUser();
  const { id: bankId } = await one<{ id: string }>(
    sql`insert into banks (name, default_currency) values ('Bank', 'USD') returning id`,
  );
  const { id: accountId } = await one<{ id: string }>(
    sql`insert into bank_accounts (name, bank_id, currency) values ('Checking', ${bankId}, 'USD') returning id`,
  );
  const { id: budgetId } = await one<{ id: string }>(
    sql`insert into budgets (bank_account_id, name, budget_type, funding_type)
      values (${accountId}, 'Goal', 'G', 'F') returning id`,
  );
  const { id: webhookId } = await one<{ id: string }>(
    sql`insert into webhooks (user_id, url, event_types, secret)
      values (${userId}, 'https://hooks.example.com/', '{*}', 'secret') returning id`,
  );
  return { userId, bankId, accountId, budgetId, webhookId, newUser, next };
}

const refusal = (attempt: Promise<unknown>) =>
  attempt.then(
    () => null,
    (error: unknown) => sqlState(error),
  );

describe.each(testEngines())("kind columns in the database (%s)", (engine) => {
  let handle: DatabaseHandle;
  let world: World;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    world = await worldIn(handle);
  });
  afterAll(() => handle?.close());

  it.each(KIND_COLUMNS.map((kind) => [nameOf(kind.column), kind] as const))(
    "%s takes every name of its list and refuses any other",
    async (_name, { values, insert }) => {
      for (const value of values)
        expect(await refusal(handle.db.execute(await insert(world, value))), value).toBeNull();
      for (const value of outside(values))
        expect(await refusal(handle.db.execute(await insert(world, value))), `'${value}'`).toBe("23514");
    },
  );
});

describe.each(testEngines())("the kind checks migration (%s)", (engine) => {
  let handle: DatabaseHandle;

  beforeEach(async () => {
    handle = await openTestDatabase(engine);
  });
  afterEach(() => handle.close());

  it("applies to tables holding a row of every listed name, then holds them", async () => {
    const statements = await kindChecksMigration();
    const added = [...statements.join("\n").matchAll(/ALTER TABLE "(\w+)" ADD CONSTRAINT "(\w+)"/g)];
    expect(added.length).toBeGreaterThan(0);
    // Back to the tables as they were before the migration, holding one row of each name.
    for (const [, table, constraint] of added)
      await handle.db.execute(sql.raw(`ALTER TABLE "${table}" DROP CONSTRAINT "${constraint}"`));
    const world = await worldIn(handle);
    for (const { values, insert } of KIND_COLUMNS)
      for (const value of values) await handle.db.execute(await insert(world, value));

    for (const statement of statements) await handle.db.execute(sql.raw(statement));

    for (const { column, insert } of KIND_COLUMNS)
      expect(await refusal(handle.db.execute(await insert(world, "z"))), nameOf(column)).toBe("23514");
  });
});
