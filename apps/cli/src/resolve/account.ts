import { listBankAccountsRoute } from "@allot/contract/bank-accounts/routes";
import { isUuid } from "@allot/contract/http/fields";
import { getMeRoute } from "@allot/contract/users/routes";
import type { Client } from "@allot/sdk/client";
import { UsageError } from "../output";

const normalise = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * The account a command works on: `--account` by id or name (any case); without it, the user's
 * default bank account, or their only account. Anything else is a usage error saying what to pass.
 */
export async function resolveAccountId(client: Client, nameOrId: string | undefined): Promise<string> {
  if (nameOrId && isUuid(nameOrId.trim())) return nameOrId.trim().toLowerCase();
  if (!nameOrId) {
    const me = await client.call(getMeRoute, {});
    if (me.default_bank_account) return me.default_bank_account;
  }
  const accounts: { id: string; name: string }[] = [];
  for await (const account of client.paginate(listBankAccountsRoute, { page_size: 500 }))
    accounts.push(account);
  const names = accounts.map((account) => account.name).join(", ") || "none";
  if (!nameOrId) {
    if (accounts.length === 1) return (accounts[0] as { id: string }).id;
    throw new UsageError(
      accounts.length === 0
        ? "You have no bank account yet: create one with `allot accounts create`."
        : `Pass --account NAME (your accounts: ${names}), or set a default bank account.`,
      "account_required",
    );
  }
  const matches = accounts.filter((account) => normalise(account.name) === normalise(nameOrId));
  if (matches.length === 1) return (matches[0] as { id: string }).id;
  if (matches.length > 1)
    throw new UsageError(
      `Several of your accounts are named '${nameOrId}': use its id.`,
      "ambiguous_account",
    );
  throw new UsageError(
    `You have no account named '${nameOrId}'. Your accounts: ${names}.`,
    "unknown_account",
  );
}
