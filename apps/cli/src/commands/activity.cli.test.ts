import { ACTIVITY_EVENT_EXAMPLES } from "@allot/contract/activity/activity-event-data";
import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { userRoutes } from "@allot/contract/users/routes";
import { bankAccountOwners, bankAccounts } from "@allot/db/schema/bank-accounts";
import { testEngines } from "@allot/db/testing/test-databases";
import { recordEvent } from "@allot/domain/events/record-event";
import {
  internalContext,
  type PublicContext,
  type UseCaseContext,
} from "@allot/domain/shared/use-case-context";
import { exampleChange } from "@allot/domain/testing/event-examples";
import { asUser } from "@allot/domain/testing/use-case-context";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface EventJson {
  id: string;
  type: string;
  occurred_at: string;
  bank_account: string;
  actor: { kind: string; username: string | null; api_key: unknown };
  request_id: string;
  summary: string;
  data: Record<string, unknown>;
}

describe.each(testEngines())("allot activity against a running API (%s)", (engine) => {
  const server = useCliServer(engine);
  const db = () => server.t.db;

  /**
   * A user in Tokyo (UTC+9) with one account, "Household", and five events written by the trail's
   * writer: the account is made in the database, not over HTTP, so no event but these is in it.
   */
  async function setUp() {
    const person = await server.apiKeyUser();
    const { user } = person;
    const zoned = await server.t.as(user).call(userRoutes.updateMe, { timezone: "Asia/Tokyo" });
    expect(zoned.statusCode, zoned.body).toBe(200);
    const bank = await server.bank("Activity Bank");
    const [account] = await db()
      .insert(bankAccounts)
      .values({ name: "Household", bankId: bank.id, currency: "USD" })
      .returning({ id: bankAccounts.id });
    if (!account) throw new Error("no account");
    await db().insert(bankAccountOwners).values({ bankAccountId: account.id, userId: user.id });
    const actor = {
      userId: user.id,
      username: user.username,
      isStaff: false,
      credential: "session" as const,
      sessionId: null,
      apiKey: null,
    };
    const write = (ctx: UseCaseContext | PublicContext, type: ActivityEventType, says: string, at: string) =>
      db().transaction((tx) =>
        recordEvent(tx, { ...ctx, now: new Date(at) }, exampleChange(account.id, type, says)),
      );
    const bySam = asUser(db(), actor);
    // Tokyo's 10 March runs from 2026-03-09T15:00Z to 2026-03-10T15:00Z.
    await write(bySam, "budget.created", "created the budget Rent", "2026-03-09T14:59:00Z");
    await write(bySam, "budget.updated", "changed the budget Rent", "2026-03-09T15:00:00Z");
    await write(
      internalContext(db(), "scheduler"),
      "funding.completed",
      "funded 1 budget",
      "2026-03-10T01:30:00Z",
    );
    await write(bySam, "transfer.created", "moved 5.00 USD from Unallocated to Rent", "2026-03-10T14:59:00Z");
    await write(
      internalContext(db(), "cli"),
      "budget.deleted",
      "deleted the budget Old",
      "2026-03-10T15:00:00Z",
    );
    const allot = (...args: string[]) => person.allot(["activity", ...args]);
    /** A --json run that must succeed. */
    const json = async (...args: string[]) => {
      const run = await allot(...args, "--json");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      return run.json<EventJson[]>();
    };
    return { user, accountId: account.id, allot, json };
  }

  const typesOf = (rows: EventJson[]) => rows.map((row) => row.type);

  it("prints when (on the account's clock), who and what, newest first", SLOW, async () => {
    const { user, allot } = await setUp();
    const table = await allot();
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^WHEN\s+WHO\s+TYPE\s+WHAT$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/))).toEqual([
      ["2026-03-11 00:00", "system", "budget.deleted", "Allot deleted the budget Old"],
      [
        "2026-03-10 23:59",
        user.username,
        "transfer.created",
        `${user.username} moved 5.00 USD from Unallocated to Rent`,
      ],
      ["2026-03-10 10:30", "scheduler", "funding.completed", "The scheduler funded 1 budget"],
      ["2026-03-10 00:00", user.username, "budget.updated", `${user.username} changed the budget Rent`],
      ["2026-03-09 23:59", user.username, "budget.created", `${user.username} created the budget Rent`],
    ]);
  });

  it(
    "sends the API's filters and prints its objects with --json, across pages up to --limit",
    SLOW,
    async () => {
      const { user, accountId, json } = await setUp();
      const all = await json("--account", "household");
      expect(typesOf(all)).toEqual([
        "budget.deleted",
        "transfer.created",
        "funding.completed",
        "budget.updated",
        "budget.created",
      ]);
      expect(all[1]).toEqual({
        id: expect.any(String),
        type: "transfer.created",
        occurred_at: "2026-03-10T14:59:00.000Z",
        bank_account: accountId,
        actor: { kind: "user", username: user.username, api_key: null },
        request_id: expect.any(String),
        summary: `${user.username} moved 5.00 USD from Unallocated to Rent`,
        data: ACTIVITY_EVENT_EXAMPLES["transfer.created"],
      });

      // --type repeated, or with several values.
      expect(typesOf(await json("--type", "budget.created", "--type", "funding.completed"))).toEqual([
        "funding.completed",
        "budget.created",
      ]);
      expect(
        typesOf(await json("--account", accountId, "--type", "budget.updated", "budget.deleted")),
      ).toEqual(["budget.deleted", "budget.updated"]);
      // --actor in any case; bare dates are Tokyo's days, --before taking in the whole of it.
      expect(typesOf(await json("--actor", user.username.toUpperCase(), "--after", "2026-03-10"))).toEqual([
        "transfer.created",
        "budget.updated",
      ]);
      expect(typesOf(await json("--after", "2026-03-10", "--before", "2026-03-10"))).toEqual([
        "transfer.created",
        "funding.completed",
        "budget.updated",
      ]);
      expect(typesOf(await json("--before", "2026-03-10T01:30:00Z"))).toEqual([
        "funding.completed",
        "budget.updated",
        "budget.created",
      ]);
      // --limit: the newest N, however many pages that takes.
      expect(typesOf(await json("--limit", "3"))).toEqual([
        "budget.deleted",
        "transfer.created",
        "funding.completed",
      ]);
    },
  );

  it(
    "refuses bad flags before sending anything (exit 2), another's account with 1, and says when nothing matches",
    SLOW,
    async () => {
      const { allot } = await setUp();
      const badType = await allot("--type", "budget.exploded");
      expect(badType.code).toBe(2);
      expect(badType.stderr).toContain("budget.exploded");
      expect(badType.stderr).toContain("budget.created");
      const badDate = await allot("--after", "yesterday");
      expect(badDate.code).toBe(2);
      expect(badDate.stderr).toContain("--after must be a date like 2026-01-31");
      const badLimit = await allot("--limit", "0");
      expect(badLimit.code).toBe(2);

      const stranger = await setUp();
      const notMine = await allot("--account", stranger.accountId, "--json");
      expect(notMine.code).toBe(1);
      expect(notMine.errorJson()).toMatchObject({ code: "not_found" });

      const none = await allot("--actor", "nobody@example.com");
      expect(none.code).toBe(0);
      expect(none.stdout).toBe("");
      expect(none.stderr).toContain("No activity matches");
    },
  );
});
