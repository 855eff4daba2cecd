import type { ApiKeySchema, CreatedApiKeySchema } from "@allot/contract/api-keys/api-key";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { isUuid } from "@allot/contract/http/fields";
import type { Client } from "@allot/sdk/client";
import type { Command } from "commander";
import type { z } from "zod";
import { type ApiOptions, addApiOptions, openApiClient } from "../api-session";
import { confirmDestructive } from "../confirm";
import type { CliEnv } from "../env";
import type { Column } from "../format/columns";
import { addOutputOptions, emitList, emitRecord, type OutputOptions } from "../format/emit";
import { shown } from "../format/terminal-text";
import { reportNeedingLogin } from "../login-hint";
import { printJson, UsageError } from "../output";

type ApiKey = z.infer<typeof ApiKeySchema>;
type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
type Options = ApiOptions & OutputOptions;

const MAX_EXPIRY_DAYS = 3650;

function status(key: ApiKey, now = Date.now()): "revoked" | "expired" | "active" {
  if (key.revoked_at) return "revoked";
  if (key.expires_at && Date.parse(key.expires_at) <= now) return "expired";
  return "active";
}

const COLUMNS: Column<ApiKey>[] = [
  { header: "Name", value: (k) => k.name },
  { header: "Prefix", value: (k) => k.prefix },
  { header: "Status", value: (k) => status(k) },
  { header: "Expires", value: (k) => k.expires_at ?? "never" },
  { header: "Last used", value: (k) => k.last_used_at ?? "never" },
  { header: "Created", value: (k) => k.created_at },
  { header: "Id", value: (k) => k.uuid },
];

const FIELDS: Column<ApiKey>[] = [
  { header: "id", value: (k) => k.uuid },
  { header: "name", value: (k) => k.name },
  { header: "prefix", value: (k) => k.prefix },
  { header: "status", value: (k) => status(k) },
  { header: "expires at", value: (k) => k.expires_at ?? "never" },
  { header: "last used at", value: (k) => k.last_used_at ?? "never" },
  { header: "revoked at", value: (k) => k.revoked_at },
  { header: "created at", value: (k) => k.created_at },
];

/**
 * `allot keys`: the caller's API keys. The API manages keys for interactive logins only, so these
 * commands need `allot login` (an API key gets 403, with a hint).
 */
export function registerKeysCommands(keys: Command, env: CliEnv): void {
  keys.addHelpText(
    "after",
    '\nExamples:\n  $ allot keys\n  $ allot keys create "importer on the NAS" --expires-in-days 90\n  $ allot keys revoke allot_AbCdEf\n',
  );

  addApiOptions(addOutputOptions(keys.command("list", { isDefault: true })))
    .description("List your API keys, newest first: active, expired and revoked (the default)")
    .addHelpText("after", "\nExamples:\n  $ allot keys\n  $ allot keys list --json\n")
    .action((options: Options) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        emitList(
          await allKeys(client),
          COLUMNS,
          options,
          "No API keys yet: create one with `allot keys create NAME`.",
        );
      }),
    );

  addApiOptions(addOutputOptions(keys.command("create")))
    .description("Create an API key; the key itself is shown this once")
    .argument("<name>", "a label that says where the key is used")
    .option(
      "--expires-in-days <days>",
      `days until it stops working (1 to ${MAX_EXPIRY_DAYS}; default: never)`,
    )
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot keys create "bank scraper" --expires-in-days 365\n  $ allot keys create ci --json | jq -r .key\n',
    )
    .action((name: string, options: Options & { expiresInDays?: string }) =>
      run(options, async () => {
        const expiryDays = days(options.expiresInDays);
        const client = await openApiClient(env, options);
        const created = await client.call(apiKeyRoutes.create, { name, expiry_days: expiryDays });
        const fields: Column<CreatedApiKey>[] = [...FIELDS, { header: "key", value: (k) => k.key }];
        emitRecord(created, fields, options);
        // On stderr: a script reading stdout gets the key alone, a person still sees the warning.
        process.stderr.write(
          "Store this key now (e.g. in a password manager): it is not shown again. Use it as ALLOT_API_KEY or with --api-key.\n",
        );
      }),
    );

  addApiOptions(keys.command("revoke"))
    .description("Revoke one API key: it stops working at once and stays listed")
    .argument("<key>", "the key's id, its prefix (allot_…) or its name")
    .option("--yes", "do not ask: revoke it")
    .option("--json", "print JSON for scripts")
    .addHelpText(
      "after",
      '\nExamples:\n  $ allot keys revoke "bank scraper"\n  $ allot keys revoke allot_AbCdEf --yes --json\n',
    )
    .action((reference: string, options: ApiOptions & { yes?: boolean; json?: boolean }) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        const key = await findKey(client, reference);
        await confirmDestructive(`Revoke API key '${key.name}' (${key.prefix}…)?`, options.yes);
        const revoked = await client.call(apiKeyRoutes.revoke, { uuid: key.uuid });
        if (options.json) printJson(revoked);
        else process.stdout.write(shown`Revoked API key '${revoked.name}' (${revoked.prefix}…).\n`);
      }),
    );

  addApiOptions(keys.command("revoke-all"))
    .description("Revoke every active API key of yours (your login session is not affected)")
    .option("--yes", "do not ask: revoke them all")
    .option("--json", "print JSON for scripts")
    .addHelpText("after", "\nExamples:\n  $ allot keys revoke-all\n  $ allot keys revoke-all --yes --json\n")
    .action((options: ApiOptions & { yes?: boolean; json?: boolean }) =>
      run(options, async () => {
        const client = await openApiClient(env, options);
        await confirmDestructive("Revoke all your active API keys?", options.yes);
        const { revoked } = await client.call(apiKeyRoutes.revokeAll, {});
        if (options.json) printJson({ revoked });
        else
          process.stdout.write(
            shown`Revoked ${revoked} API key${revoked === 1 ? "" : "s"}. Create a new one with \`allot keys create NAME\`.\n`,
          );
      }),
    );
}

async function allKeys(client: Client): Promise<ApiKey[]> {
  const rows: ApiKey[] = [];
  for await (const key of client.paginate(apiKeyRoutes.list, { page_size: 500 })) rows.push(key);
  return rows;
}

/**
 * A key by id, prefix or name (any case). Revoked keys only match by id: revoking one again is
 * pointless, and a name is often reused for the key that replaced it.
 */
async function findKey(client: Client, reference: string): Promise<ApiKey> {
  const wanted = reference.trim();
  const rows = await allKeys(client);
  if (isUuid(wanted)) {
    const byId = rows.find((key) => key.uuid === wanted.toLowerCase());
    if (byId) return byId;
  }
  const live = rows.filter((key) => !key.revoked_at);
  // A pasted whole key starts with its prefix: that works too.
  const byPrefix = live.filter(
    (key) => wanted === key.prefix || (wanted.startsWith(key.prefix) && wanted.length > 40),
  );
  const matches =
    byPrefix.length > 0 ? byPrefix : live.filter((key) => key.name.toLowerCase() === wanted.toLowerCase());
  if (matches.length === 1) return matches[0] as ApiKey;
  if (matches.length > 1)
    throw new UsageError(
      `Several active keys match '${reference}' (${matches.map((key) => key.prefix).join(", ")}): pass the prefix or the id.`,
      "ambiguous_api_key",
    );
  throw new UsageError(
    `No active API key matches '${reference}': see \`allot keys\` for ids, prefixes and names.`,
    "unknown_api_key",
  );
}

/** --expires-in-days as a whole number in the API's range, or a usage error. */
function days(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_EXPIRY_DAYS)
    throw new UsageError(
      `--expires-in-days must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}, not '${value}'.`,
      "invalid_expiry",
    );
  return n;
}

async function run(options: { json?: boolean }, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    reportNeedingLogin(error, Boolean(options.json));
  }
}
