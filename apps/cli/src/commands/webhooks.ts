import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { DEFAULT_PAGE_SIZE, isUuid, MAX_PAGE_SIZE } from "@allot/contract/http/fields";
import { userRoutes } from "@allot/contract/users/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SUBSCRIPTIONS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookWithSecret,
} from "@allot/contract/webhooks/webhook";
import { localDate, localTime } from "@allot/domain/calendar/local-days";
import type { Client } from "@allot/sdk/client";
import { type Command, InvalidArgumentError } from "commander";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { addExamples } from "../cli-conventions";
import { confirmDestructive } from "../confirm";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { printJson, reportError, UsageError } from "../output";
import { resolveAccountId } from "../resolve/account";
import { positiveInteger } from "./transactions-list";

type Subscription = (typeof WEBHOOK_SUBSCRIPTIONS)[number];
type Options = ApiOptions & OutputOptions;

interface EventFlags {
  /** --events a,b */
  events?: string[];
  /** --event a --event b */
  event?: string[];
}

interface CreateFlags extends Options, EventFlags {
  account?: string;
  description?: string;
}

interface UpdateFlags extends Options, EventFlags {
  newUrl?: string;
  description?: string;
  enable?: boolean;
  disable?: boolean;
}

interface DeliveriesFlags extends Options {
  status?: DeliveryStatus[];
  eventType?: WebhookEventType[];
  limit?: number;
}

/**
 * A flag naming choices, repeated or comma-separated, each checked before anything is sent (exit 2
 * on a typo). `all` stands for `*`, which a shell would expand unquoted.
 */
const choiceList =
  <T extends string>(choices: readonly T[]) =>
  (value: string, previous: T[] = []): T[] => {
    const items = value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => (item === "all" && choices.includes("*" as T) ? "*" : item));
    const unknown = items.filter((item) => !(choices as readonly string[]).includes(item));
    if (unknown.length > 0 || items.length === 0)
      throw new InvalidArgumentError(`Use one or more of: ${choices.join(", ")}.`);
    return [...previous, ...(items as T[])];
  };

/** --events and --event together, each type once; undefined when neither was given. */
function eventTypes(flags: EventFlags): Subscription[] | undefined {
  const all = [...(flags.events ?? []), ...(flags.event ?? [])] as Subscription[];
  return all.length === 0 ? undefined : [...new Set(all)];
}

const addEventOptions = (command: Command) =>
  command
    .option(
      "--events <types>",
      "event types, comma-separated (`all` or '*' for every type, now and later)",
      choiceList(WEBHOOK_SUBSCRIPTIONS),
    )
    .option("--event <type>", "one event type (repeat it for several)", choiceList(WEBHOOK_SUBSCRIPTIONS));

const eventsText = (webhook: Webhook) => webhook.event_types.join(",");

/** An account's name for people: "all" for a webhook that follows every account of its owner. */
const accountText = (names: Map<string, string>) => (webhook: Webhook) =>
  webhook.bank_account === null ? "all" : (names.get(webhook.bank_account) ?? webhook.bank_account);

// A receiver's error answer can run to 500 characters: a table shows its start, --json all of it.
const FAILURE_CELL_CHARS = 72;

/** The last failure for people: "2026-03-10 09:41 HTTP 500", on the caller's clock; null when none. */
const lastFailureText =
  (timeZone: string, limit = Number.POSITIVE_INFINITY) =>
  (webhook: Webhook) => {
    if (webhook.last_failure_at === null) return null;
    const reason = webhook.last_failure_reason ?? "";
    const cut = reason.length > limit ? `${reason.slice(0, limit - 1)}…` : reason;
    return `${when(webhook.last_failure_at, timeZone)} ${cut}`.trim();
  };

const webhookColumns = (names: Map<string, string>, timeZone: string): Column<Webhook>[] => [
  { header: "Id", value: (w) => w.id },
  { header: "URL", value: (w) => w.url },
  { header: "Events", value: eventsText },
  { header: "Account", value: accountText(names) },
  { header: "Enabled", value: (w) => (w.enabled ? "yes" : "no") },
  { header: "Last failure", value: lastFailureText(timeZone, FAILURE_CELL_CHARS) },
];

const webhookFields = (names: Map<string, string>, timeZone = "UTC"): Column<Webhook>[] => [
  { header: "id", value: (w) => w.id },
  { header: "url", value: (w) => w.url },
  { header: "events", value: eventsText },
  { header: "account", value: accountText(names) },
  { header: "description", value: (w) => w.description },
  {
    header: "enabled",
    value: (w) =>
      w.enabled ? "yes" : w.disabled_reason ? `no (${w.disabled_reason.replaceAll("_", " ")})` : "no",
  },
  { header: "last failure", value: lastFailureText(timeZone) },
  { header: "created at", value: (w) => w.created_at },
];

/** When, on the caller's clock, to the minute: "2026-03-10 09:41". */
const when = (at: string, timeZone: string) => {
  const instant = new Date(at);
  return `${localDate(instant, timeZone)} ${localTime(instant, timeZone).slice(0, 5)}`;
};

const deliveryColumns = (timeZone: string): Column<WebhookDelivery>[] => [
  { header: "When", value: (d) => when(d.created_at, timeZone) },
  { header: "Event type", value: (d) => d.event_type },
  { header: "Status", value: (d) => d.status },
  { header: "Attempts", value: (d) => d.attempts },
  { header: "Response", value: (d) => d.response_status },
  { header: "Last error", value: (d) => d.last_error },
  // Last: what `allot webhooks redeliver` takes.
  { header: "Id", value: (d) => d.id },
];

/** `allot webhooks`: the caller's webhooks and their deliveries (docs/spec/extensions.md §4). */
export function registerWebhooksCommands(webhooks: Command, env: CliEnv): void {
  addExamples(webhooks, [
    "allot webhooks",
    "allot webhooks create https://example.com/hooks/allot --events all",
    "allot webhooks deliveries WEBHOOK_ID --status failed",
  ]);

  addExamples(
    addApiOptions(addOutputOptions(webhooks.command("list", { isDefault: true }))).description(
      "List your webhooks, newest first (the default)",
    ),
    ["allot webhooks", "allot webhooks list --json"],
  ).action((options: Options) =>
    run(options, async () => {
      const client = await openApiClient(env, options);
      const rows = await allWebhooks(client);
      const names = options.json ? new Map<string, string>() : await accountNames(client, rows);
      emitList(
        rows,
        webhookColumns(names, await failureTimeZone(client, rows, options)),
        options,
        "No webhooks yet: add one with `allot webhooks create URL --events all`.",
      );
    }),
  );

  addExamples(
    addEventOptions(addApiOptions(addOutputOptions(webhooks.command("create"))))
      .description("Subscribe a URL to account events; its signing secret is shown this once")
      .argument("<url>", "where to POST the events (https://)")
      .option(
        "--account <name-or-id>",
        "only this account's events (default: every account you own, now and later)",
      )
      .option("--description <text>", "a note on what the webhook is for"),
    [
      "allot webhooks create https://example.com/hooks/allot --events all",
      "allot webhooks create https://example.com/hooks --account Checking --events transaction.created,transfer.created",
      "allot webhooks create https://example.com/hooks --event budget.created --event budget.deleted --json | jq -r .secret",
    ],
  ).action((url: string, options: CreateFlags) =>
    run(options, async () => {
      const event_types = eventTypes(options);
      if (!event_types)
        throw new UsageError(
          "Name the events to send: --events all, or e.g. --events transaction.created,transfer.created.",
          "events_required",
        );
      const client = await openApiClient(env, options);
      const bank_account = options.account ? await resolveAccountId(client, options.account) : null;
      const created = await client.call(webhookRoutes.create, {
        url,
        event_types,
        bank_account,
        description: options.description,
      });
      await printWithSecret(client, created, options);
      // On stderr: a script reading stdout gets the secret alone, a person still sees the warning.
      process.stderr.write(
        "Store this secret now: it is shown only this once. Your receiver checks each delivery's webhook-signature with it (verifyWebhook in @allot/sdk, or any Standard Webhooks library).\n",
      );
    }),
  );

  addExamples(
    addEventOptions(addApiOptions(addOutputOptions(webhooks.command("update"))))
      .description("Change a webhook's URL, events or description, or turn it off and on")
      .argument("<webhook>", "the webhook's id or URL")
      // Not --url: on every command that names the API server, as it does here too.
      .option("--new-url <url>", "send to this URL instead")
      .option("--description <text>", "a new description ('' to clear it)")
      .option("--enable", "send events again (after a 410 or five days of failures disabled it)")
      .option("--disable", "stop sending (its pending deliveries fail)"),
    [
      "allot webhooks update WEBHOOK_ID --events transaction.created,transaction.updated",
      "allot webhooks update https://example.com/hooks/allot --disable",
      "allot webhooks update WEBHOOK_ID --new-url https://example.com/v2/hooks --enable --json",
    ],
  ).action((reference: string, options: UpdateFlags) =>
    run(options, async () => {
      if (options.enable && options.disable)
        throw new UsageError("Choose one of --enable and --disable.", "usage_error");
      const changes = {
        url: options.newUrl,
        event_types: eventTypes(options),
        description: options.description,
        enabled: options.enable ? true : options.disable ? false : undefined,
      };
      if (Object.values(changes).every((value) => value === undefined))
        throw new UsageError(
          "Nothing to change: pass --new-url, --events, --description, --enable or --disable.",
          "nothing_to_change",
        );
      const client = await openApiClient(env, options);
      const id = await webhookId(client, reference);
      const updated = await client.call(webhookRoutes.update, { id, ...changes });
      emitRecord(
        updated,
        webhookFields(
          options.json ? new Map() : await accountNames(client, [updated]),
          await failureTimeZone(client, [updated], options),
        ),
        options,
      );
    }),
  );

  addExamples(
    addApiOptions(webhooks.command("delete"))
      .description("Delete a webhook and its deliveries: nothing more is sent to it")
      .argument("<webhook>", "the webhook's id or URL")
      .option("--yes", "do not ask: delete it")
      .option("--json", "print JSON for scripts"),
    [
      "allot webhooks delete https://example.com/hooks/allot",
      "allot webhooks delete WEBHOOK_ID --yes --json",
    ],
  ).action((reference: string, options: ApiOptions & { yes?: boolean; json?: boolean }) =>
    run(options, async () => {
      const client = await openApiClient(env, options);
      const webhook = await client.call(webhookRoutes.get, { id: await webhookId(client, reference) });
      await confirmDestructive(`Delete the webhook to ${webhook.url} and its deliveries?`, options.yes);
      await client.call(webhookRoutes.delete, { id: webhook.id });
      if (options.json) printJson({ id: webhook.id, url: webhook.url, deleted: true });
      else process.stdout.write(shown`Deleted the webhook to ${webhook.url}.\n`);
    }),
  );

  addExamples(
    addApiOptions(addOutputOptions(webhooks.command("rotate-secret")))
      .description("Make a new signing secret, shown this once; the old one keeps signing for 24 hours")
      .argument("<webhook>", "the webhook's id or URL"),
    [
      "allot webhooks rotate-secret WEBHOOK_ID",
      "allot webhooks rotate-secret WEBHOOK_ID --json | jq -r .secret",
    ],
  ).action((reference: string, options: Options) =>
    run(options, async () => {
      const client = await openApiClient(env, options);
      const rotated = await client.call(webhookRoutes.rotateSecret, {
        id: await webhookId(client, reference),
      });
      await printWithSecret(client, rotated, options);
      process.stderr.write(
        "Store this secret now: it is shown only this once. The old secret keeps signing beside it for 24 hours: give your receiver the new one before then.\n",
      );
    }),
  );

  addExamples(
    addApiOptions(webhooks.command("test"))
      .description("Send a webhook.test event to a webhook; `allot webhooks deliveries` shows how it went")
      .argument("<webhook>", "the webhook's id or URL")
      .option("--json", "print the delivery as JSON for scripts"),
    ["allot webhooks test WEBHOOK_ID", "allot webhooks test https://example.com/hooks/allot --json"],
  ).action((reference: string, options: ApiOptions & { json?: boolean }) =>
    run(options, async () => {
      const client = await openApiClient(env, options);
      const id = await webhookId(client, reference);
      const delivery = await client.call(webhookRoutes.test, { id });
      if (options.json) printJson(delivery);
      else
        process.stdout.write(
          shown`Queued a webhook.test delivery (${delivery.id}): \`allot webhooks deliveries ${id}\` shows how it went.\n`,
        );
    }),
  );

  addExamples(
    addApiOptions(addOutputOptions(webhooks.command("deliveries")))
      .description("List a webhook's deliveries, newest first: status, attempts, the receiver's answer")
      .argument("<webhook>", "the webhook's id or URL")
      .option(
        "--status <status>",
        `only these states (repeat it, or separate with commas): ${DELIVERY_STATUSES.join(", ")}`,
        choiceList(DELIVERY_STATUSES),
      )
      .option(
        "--event-type <type>",
        "only these event types (repeat it, or separate with commas)",
        choiceList(WEBHOOK_EVENT_TYPES),
      )
      .option(
        "--limit <n>",
        `at most this many deliveries, following pages (default: one page of ${DEFAULT_PAGE_SIZE})`,
        positiveInteger,
      ),
    [
      "allot webhooks deliveries WEBHOOK_ID",
      "allot webhooks deliveries WEBHOOK_ID --status failed --event-type transaction.created,transfer.created",
      "allot webhooks deliveries WEBHOOK_ID --limit 1000 --json > deliveries.json",
    ],
  ).action((reference: string, options: DeliveriesFlags) =>
    run(options, async () => {
      const client = await openApiClient(env, options);
      const id = await webhookId(client, reference);
      const limit = options.limit ?? DEFAULT_PAGE_SIZE;
      const query = {
        id,
        status: options.status,
        event_type: options.eventType,
        page_size: Math.min(limit, MAX_PAGE_SIZE),
      };
      const rows: WebhookDelivery[] = [];
      for await (const row of client.paginate(webhookRoutes.listDeliveries, query)) {
        rows.push(row);
        if (rows.length >= limit) break;
      }
      // --json prints the API's objects as they are; people read times on their own clock.
      const timeZone = options.json ? "UTC" : (await client.call(userRoutes.getMe, {})).timezone;
      emitList(
        rows,
        deliveryColumns(timeZone),
        options,
        "No deliveries match: `allot webhooks test` sends one, or loosen the filters.",
      );
    }),
  );

  addExamples(
    addApiOptions(webhooks.command("redeliver"))
      .description("Send a delivery's event again, as a new delivery with the same webhook-id")
      .argument("<webhook>", "the webhook's id or URL")
      .argument("<delivery-id>", "the delivery's id (the last column of `allot webhooks deliveries`)")
      .option("--json", "print the new delivery as JSON for scripts"),
    [
      "allot webhooks redeliver WEBHOOK_ID DELIVERY_ID",
      "allot webhooks redeliver WEBHOOK_ID DELIVERY_ID --json",
    ],
  ).action((reference: string, deliveryId: string, options: ApiOptions & { json?: boolean }) =>
    run(options, async () => {
      const client = await openApiClient(env, options);
      const id = await webhookId(client, reference);
      const delivery = await client.call(webhookRoutes.redeliver, { id, delivery_id: deliveryId });
      if (options.json) printJson(delivery);
      else
        process.stdout.write(
          shown`Queued the ${delivery.event_type} event again (delivery ${delivery.id}): \`allot webhooks deliveries ${id}\` shows how it went.\n`,
        );
    }),
  );
}

/** A created or rotated webhook with its secret: JSON for scripts, `field  value` lines for people. */
async function printWithSecret(client: Client, webhook: WebhookWithSecret, options: OutputOptions) {
  const names = options.json ? new Map<string, string>() : await accountNames(client, [webhook]);
  const fields: Column<WebhookWithSecret>[] = [
    ...webhookFields(names),
    { header: "secret", value: (w) => w.secret },
  ];
  emitRecord(webhook, fields, options);
}

async function allWebhooks(client: Client): Promise<Webhook[]> {
  const rows: Webhook[] = [];
  for await (const webhook of client.paginate(webhookRoutes.list, { page_size: MAX_PAGE_SIZE }))
    rows.push(webhook);
  return rows;
}

/** The caller's time zone to show failures in: asked only when one is shown (UTC for --json, unused). */
async function failureTimeZone(client: Client, rows: readonly Webhook[], options: OutputOptions) {
  if (options.json || rows.every((webhook) => webhook.last_failure_at === null)) return "UTC";
  return (await client.call(userRoutes.getMe, {})).timezone;
}

/** Names of the accounts the webhooks follow, by id (none asked for when they all follow every account). */
async function accountNames(client: Client, rows: readonly Webhook[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (rows.every((webhook) => webhook.bank_account === null)) return names;
  for await (const account of client.paginate(bankAccountRoutes.list, { page_size: MAX_PAGE_SIZE }))
    names.set(account.id, account.name);
  return names;
}

/** A webhook by id, or by its URL when one webhook of the caller's has it. */
async function webhookId(client: Client, reference: string): Promise<string> {
  const wanted = reference.trim();
  if (isUuid(wanted)) return wanted.toLowerCase();
  const href = URL.canParse(wanted) ? new URL(wanted).href : wanted;
  const matches = (await allWebhooks(client)).filter((webhook) => webhook.url === href);
  if (matches.length === 1) return (matches[0] as Webhook).id;
  if (matches.length > 1)
    throw new UsageError(
      `Several of your webhooks send to ${href}: pass the id (see \`allot webhooks\`).`,
      "ambiguous_webhook",
    );
  throw new UsageError(
    `None of your webhooks sends to '${reference}': see \`allot webhooks\` for ids and URLs.`,
    "unknown_webhook",
  );
}

async function run(options: { json?: boolean }, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    reportError(error, Boolean(options.json));
  }
}
