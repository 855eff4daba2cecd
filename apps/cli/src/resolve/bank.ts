import { bankRoutes } from "@allot/contract/banks/routes";
import { isUuid } from "@allot/contract/http/fields";
import type { Client } from "@allot/sdk/client";
import { UsageError } from "../output";

const normalise = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** A bank by its id or its name (any case), from GET /api/v1/banks/; else a usage error listing the banks. */
export async function resolveBankId(client: Client, nameOrId: string): Promise<string> {
  if (isUuid(nameOrId.trim())) return nameOrId.trim().toLowerCase();
  const banks: { id: string; name: string }[] = [];
  for await (const bank of client.paginate(bankRoutes.list, { ordering: "name", page_size: 500 }))
    banks.push(bank);
  const matches = banks.filter((bank) => normalise(bank.name) === normalise(nameOrId));
  if (matches.length === 1) return (matches[0] as { id: string }).id;
  if (matches.length > 1)
    throw new UsageError(`Several banks are named '${nameOrId}': pass --bank with its id.`, "ambiguous_bank");
  const shown = banks.slice(0, 20).map((bank) => bank.name);
  const more = banks.length > shown.length ? `, and ${banks.length - shown.length} more` : "";
  throw new UsageError(
    banks.length === 0
      ? "The server knows no banks yet: an administrator adds them with `allot admin create-bank`."
      : `No bank is named '${nameOrId}'. Banks: ${shown.join(", ")}${more}.`,
    "unknown_bank",
  );
}
