import { useWebhookReceiver } from "@allot/api/test/testing/webhook-receiver";
import { webhooksKit } from "@allot/api/test/testing/webhooks-test-kit";
import { userRoutes } from "@allot/contract/users/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { localDate, localTime } from "@allot/domain/calendar/local-days";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface WebhookJson {
  id: string;
  url: string;
  event_types: string[];
  bank_account: string | null;
  description: string;
  enabled: boolean;
  created_at: string;
  secret?: string;
}

interface DeliveryJson {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
}

// Nothing listens there, and nothing is sent: the test server runs no sender, so deliveries stay pending.
const HOOK = "http://127.0.0.1:9/hooks/allot";
const OTHER_HOOK = "http://127.0.0.1:9/hooks/other";

const SHOWN_ONCE = "Store this secret now: it is shown only this once.";

/** A table's lines split into cells (two or more spaces apart). */
const cells = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => line.split(/ {2,}/));

/** A secret as extensions.md §4 makes one: `whsec_` + base64 of 32 bytes. */
function expectSecret(secret: string | undefined) {
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(Buffer.from(secret?.slice("whsec_".length) ?? "", "base64")).toHaveLength(32);
}

describe.each(testEngines())("allot webhooks against a running API (%s)", (engine) => {
  const server = useCliServer(engine);
  // The sender's one pass, through the real HTTP poster, for the test of a failing webhook.
  const kit = webhooksKit(server.t);
  const receiver = useWebhookReceiver();

  /** An API-key user (keys may manage webhooks) with one account, "Household". */
  async function setUp() {
    const person = await server.apiKeyUser();
    const bank = await server.bank("Webhook Bank");
    const account = await person.client.bankAccounts.create({
      name: "Household",
      bank: bank.id,
      posted_balance: "0.00",
    });
    const allot = (...args: string[]) => person.allot(["webhooks", ...args]);
    /** A --json run that must succeed. */
    const json = async <T>(...args: string[]) => {
      const run = await allot(...args, "--json");
      expect(run.code, run.stderr).toBe(0);
      return run.json<T>();
    };
    return { ...person, account, allot, json };
  }

  it(
    "creates webhooks (the secret shown once, with a warning), lists them for people and scripts",
    SLOW,
    async () => {
      const { client, account, allot, json } = await setUp();

      const all = await allot("create", HOOK, "--events", "all", "--description", "everything");
      expect(all.code, all.stderr).toBe(0);
      expect(all.stderr).toBe(
        `${SHOWN_ONCE} Your receiver checks each delivery's webhook-signature with it (verifyWebhook in @allot/sdk, or any Standard Webhooks library).\n`,
      );
      const shown = Object.fromEntries(
        cells(all.stdout).map(([field, ...value]) => [field, value.join("  ")]),
      );
      expect(shown).toMatchObject({
        url: HOOK,
        events: "*",
        account: "all",
        description: "everything",
        enabled: "yes",
        secret: expect.stringMatching(/^whsec_/),
      });
      expectSecret(shown.secret);

      // The account by name; --events and a repeated --event together, each type once.
      const one = await allot(
        "create",
        OTHER_HOOK,
        "--account",
        "household",
        "--events",
        "transaction.created,transfer.created",
        "--event",
        "budget.deleted",
        "--event",
        "transfer.created",
        "--json",
      );
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).toContain(SHOWN_ONCE);
      const created = one.json<WebhookJson>();
      expect(created).toEqual({
        id: expect.any(String),
        url: OTHER_HOOK,
        event_types: ["transaction.created", "transfer.created", "budget.deleted"],
        bank_account: account.id,
        description: "",
        enabled: true,
        disabled_reason: null,
        credential: { kind: "api_key", api_key: expect.any(String) },
        last_failure_at: null,
        last_failure_reason: null,
        created_at: expect.any(String),
        secret: expect.any(String),
      });
      expectSecret(created.secret);

      const table = await allot();
      expect(table.stderr).toBe("");
      expect(cells(table.stdout)).toEqual([
        ["ID", "URL", "EVENTS", "ACCOUNT", "ENABLED", "LAST FAILURE"],
        [
          created.id,
          OTHER_HOOK,
          "transaction.created,transfer.created,budget.deleted",
          "Household",
          "yes",
          "-",
        ],
        [shown.id, HOOK, "*", "all", "yes", "-"],
      ]);
      // Listed, the secret is never shown again.
      expect(table.stdout).not.toContain("whsec_");
      const listed = await json<WebhookJson[]>("list");
      expect(listed.map((webhook) => webhook.id)).toEqual([created.id, shown.id]);
      expect(listed.every((webhook) => webhook.secret === undefined)).toBe(true);
      expect((await client.call(webhookRoutes.list, {})).count).toBe(2);
    },
  );

  it(
    "updates a webhook by id or URL, rotates its secret, and deletes it only when confirmed",
    SLOW,
    async () => {
      const { client, allot, json } = await setUp();
      const created = await json<WebhookJson>("create", HOOK, "--event", "budget.created");

      const changed = await json<WebhookJson>(
        "update",
        created.id,
        "--events",
        "budget.created,budget.deleted",
        "--description",
        "budgets",
        "--disable",
      );
      expect(changed).toMatchObject({
        id: created.id,
        event_types: ["budget.created", "budget.deleted"],
        description: "budgets",
        enabled: false,
      });
      expect(changed).not.toHaveProperty("secret");
      // For people, a disabled webhook says why it is off.
      const off = await allot("update", created.id, "--disable");
      expect(off.stdout).toMatch(/^enabled +no \(owner\)$/m);

      // By its URL, in the form the server keeps.
      const moved = await allot("update", HOOK, "--new-url", OTHER_HOOK, "--enable");
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stdout).toMatch(new RegExp(`^url +${OTHER_HOOK}$`, "m"));
      expect(moved.stdout).toMatch(/^enabled +yes$/m);
      expect(await client.call(webhookRoutes.get, { id: created.id })).toMatchObject({
        url: OTHER_HOOK,
        enabled: true,
        description: "budgets",
      });

      const nothing = await allot("update", created.id);
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toContain("Nothing to change: pass --new-url, --events");
      const both = await allot("update", created.id, "--enable", "--disable");
      expect(both.code).toBe(2);

      const rotated = await allot("rotate-secret", OTHER_HOOK, "--json");
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stderr).toBe(
        `${SHOWN_ONCE} The old secret keeps signing beside it for 24 hours: give your receiver the new one before then.\n`,
      );
      const secret = rotated.json<WebhookJson>().secret;
      expectSecret(secret);
      expect(secret).not.toBe(created.secret);

      const unconfirmed = await allot("delete", created.id);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toBe(
        `error: Delete the webhook to ${OTHER_HOOK} and its deliveries: this cannot be undone, so pass --yes to confirm.\n`,
      );
      expect((await client.call(webhookRoutes.list, {})).count).toBe(1);
      const deleted = await allot("delete", OTHER_HOOK, "--yes");
      expect(deleted.stderr).toBe("");
      expect(deleted.stdout).toBe(`Deleted the webhook to ${OTHER_HOOK}.\n`);
      expect((await client.call(webhookRoutes.list, {})).count).toBe(0);

      const none = await allot();
      expect(none.code).toBe(0);
      expect(none.stdout).toBe("");
      expect(none.stderr).toContain("No webhooks yet");
    },
  );

  it("sends a test event, lists deliveries with filters and --limit, and redelivers one", SLOW, async () => {
    const { user, allot, json } = await setUp();
    const zoned = await server.t.as(user).call(userRoutes.updateMe, { timezone: "Asia/Tokyo" });
    expect(zoned.statusCode, zoned.body).toBe(200);
    const { id } = await json<WebhookJson>("create", HOOK, "--events", "*");

    const sent = await allot("test", id);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(
      new RegExp(
        `^Queued a webhook\\.test delivery \\([0-9a-f-]{36}\\): \`allot webhooks deliveries ${id}\``,
      ),
    );
    const test = await json<DeliveryJson>("test", HOOK);
    expect(test).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0 });

    const again = await json<DeliveryJson>("redeliver", id, test.id);
    expect(again).toMatchObject({ event_id: test.event_id, event_type: "webhook.test", status: "pending" });
    expect(again.id).not.toBe(test.id);

    const deliveries = await json<DeliveryJson[]>("deliveries", id);
    expect(deliveries).toHaveLength(3);
    expect(deliveries[0]?.id).toBe(again.id);
    expect(deliveries[1]?.id).toBe(test.id);

    // For people: on the user's clock (Tokyo), with the id redeliver takes last.
    const table = await allot("deliveries", id);
    expect(table.stderr).toBe("");
    const [header, first] = cells(table.stdout);
    expect(header).toEqual(["WHEN", "EVENT TYPE", "STATUS", "ATTEMPTS", "RESPONSE", "LAST ERROR", "ID"]);
    const at = new Date(again.created_at);
    const tokyo = `${localDate(at, "Asia/Tokyo")} ${localTime(at, "Asia/Tokyo").slice(0, 5)}`;
    expect(first).toEqual([tokyo, "webhook.test", "pending", "0", "-", "-", again.id]);

    // Filters go to the API; --limit stops after that many, whatever the page size.
    expect(
      await json<DeliveryJson[]>("deliveries", id, "--status", "pending", "--event-type", "webhook.test"),
    ).toHaveLength(3);
    expect(await json<DeliveryJson[]>("deliveries", id, "--status", "failed,succeeded")).toEqual([]);
    expect((await json<DeliveryJson[]>("deliveries", id, "--limit", "2")).map((d) => d.id)).toEqual([
      again.id,
      test.id,
    ]);
    const none = await allot("deliveries", id, "--event-type", "budget.created");
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("No deliveries match");
    const badStatus = await allot("deliveries", id, "--status", "lost");
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toContain("pending, succeeded, failed");
  });

  it(
    "refuses bad flags before sending anything (exit 2), and what the API refuses with 1",
    SLOW,
    async () => {
      const { allot, json } = await setUp();
      const noEvents = await allot("create", HOOK);
      expect(noEvents.code).toBe(2);
      expect(noEvents.stderr).toContain("Name the events to send: --events all");
      const badEvent = await allot("create", HOOK, "--events", "budget.exploded");
      expect(badEvent.code).toBe(2);
      expect(badEvent.stderr).toContain("budget.created");
      const noAccount = await allot("create", HOOK, "--events", "all", "--account", "Savings");
      expect(noAccount.code).toBe(2);
      expect(noAccount.stderr).toContain("You have no account named 'Savings'");
      const unknown = await allot("test", "https://nowhere.example.com/");
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("None of your webhooks sends to 'https://nowhere.example.com/'");

      const badUrl = await allot("create", "ftp://example.com/hook", "--events", "all", "--json");
      expect(badUrl.code).toBe(1);
      expect(badUrl.errorJson()).toEqual({ url: [expect.stringContaining("must start with")] });

      // Another user's webhook is not found, even by id.
      const stranger = await setUp();
      const theirs = await stranger.json<WebhookJson>("create", HOOK, "--events", "all");
      const notMine = await allot("deliveries", theirs.id, "--json");
      expect(notMine.code).toBe(1);
      expect(notMine.errorJson()).toMatchObject({ code: "not_found" });
      expect(await json<WebhookJson[]>("list")).toEqual([]);
    },
  );
  // Last in the file: its sender pass also tries what the other tests left pending (to port 9).
  it(
    "shows each webhook's last failure, when (on the user's clock) and why; --json carries it",
    SLOW,
    async () => {
      const { user, allot, json } = await setUp();
      const zoned = await server.t.as(user).call(userRoutes.updateMe, { timezone: "Asia/Tokyo" });
      expect(zoned.statusCode, zoned.body).toBe(200);
      const failingUrl = `${receiver.url}/failing`;
      const failing = await json<WebhookJson>("create", failingUrl, "--events", "all");
      const quiet = await json<WebhookJson>("create", HOOK, "--event", "budget.deleted");
      receiver.answerWith(() => ({ status: 500, body: "down for maintenance" }));
      expect((await allot("test", failing.id)).code).toBe(0);
      await kit.deliver();
      expect(receiver.received("/failing")).toHaveLength(1);
      receiver.reset();

      const listed = await json<(WebhookJson & { last_failure_at: string | null })[]>("list");
      expect(listed).toEqual([
        expect.objectContaining({ id: quiet.id, last_failure_at: null, last_failure_reason: null }),
        expect.objectContaining({
          id: failing.id,
          last_failure_at: expect.any(String),
          last_failure_reason: "HTTP 500: down for maintenance",
        }),
      ]);
      const at = new Date(listed[1]?.last_failure_at as string);
      const tokyo = `${localDate(at, "Asia/Tokyo")} ${localTime(at, "Asia/Tokyo").slice(0, 5)}`;
      const table = await allot();
      expect(table.stderr).toBe("");
      expect(cells(table.stdout)).toEqual([
        ["ID", "URL", "EVENTS", "ACCOUNT", "ENABLED", "LAST FAILURE"],
        [quiet.id, HOOK, "budget.deleted", "all", "yes", "-"],
        [failing.id, failingUrl, "*", "all", "yes", `${tokyo} HTTP 500: down for maintenance`],
      ]);
    },
  );
});
