import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { isUuid } from "@allot/contract/http/fields";
import { userRoutes } from "@allot/contract/users/routes";
import type { Client } from "@allot/sdk/client";
import { UsageError } from "../output";

const normalise = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** Names in an error: enough to spot the right one, not a wall of text. */
const SHOWN = 20;

/**
 * The account a command works on: `--account` by id or name (any case; the one spelled exactly so
 * wins among several); without it, the user's default bank account, or their only account.
 * Anything else is a usage error listing the candidates, saying what to pass.
 */
export async function resolveAccountId(client: Client, nameOrId: string | undefined): Promise<string> {
  if (nameOrId !== undefined && nameOrId.trim() === "")
    throw new UsageError("--account is empty: give an account's name or id.", "unknown_account");
  if (nameOrId && isUuid(nameOrId.trim())) return nameOrId.trim().toLowerCase();
  if (!nameOrId) {
    const me = await client.call(userRoutes.getMe, {});
    if (me.default_bank_account) return me.default_bank_account;
  }
  const accounts: { id: string; name: string }[] = [];
  for await (const account of client.paginate(bankAccountRoutes.list, { page_size: 500 }))
    accounts.push(account);
  const shown = accounts.slice(0, SHOWN).map((account) => account.name);
  const more = accounts.length > shown.length ? `, and ${accounts.length - shown.length} more` : "";
  const names = shown.length > 0 ? `${shown.join(", ")}${more}` : "none";
  if (!nameOrId) {
    if (accounts.length === 1) return (accounts[0] as { id: string }).id;
    throw new UsageError(
      accounts.length === 0
        ? "You have no bank account yet: create one with `allot accounts create`."
        : `Pass --account NAME (your accounts: ${names}), or set a default bank account.`,
      "account_required",
    );
  }
  const sameName = accounts.filter((account) => normalise(account.name) === normalise(nameOrId));
  const exact = sameName.filter((account) => account.name === nameOrId.trim());
  const matches = sameName.length > 1 && exact.length === 1 ? exact : sameName;
  if (matches.length === 1) return (matches[0] as { id: string }).id;
  if (matches.length > 1)
    throw new UsageError(
      `Several of your accounts are named '${nameOrId}': pass one's id instead — ${matches
        .slice(0, SHOWN)
        .map((account) => `${account.id} (${account.name})`)
        .join(", ")}.`,
      "ambiguous_account",
    );
  throw new UsageError(
    `You have no account named '${nameOrId}'. Your accounts: ${names}.`,
    "unknown_account",
  );
}
