import { isUuid } from "@allot/contract/http/fields";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import type { TransactionCategorySchema } from "@allot/contract/transaction-categories/transaction-category";
import { userRoutes } from "@allot/contract/users/routes";
import type { Client } from "@allot/sdk/client";
import type { z } from "zod";
import { UsageError } from "../output";

type Category = z.infer<typeof TransactionCategorySchema>;

const normalise = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * "Group : Name" as people type it (spaces around the colon optional); the group may itself hold
 * colons, the name is what follows the last one. Without a colon there is only a name.
 */
export function splitCategoryName(text: string): { group: string | null; name: string } {
  const at = text.lastIndexOf(":");
  if (at < 0) return { group: null, name: text.trim() };
  return { group: text.slice(0, at).trim(), name: text.slice(at + 1).trim() };
}

/**
 * A visible category by its id, its full name ("Group : Name") or, when only one has it, its bare
 * name; any case. Among several with that name the caller's own wins (only those can be changed).
 * An id is fetched too, so callers can name what they act on.
 */
export async function resolveCategory(client: Client, nameOrId: string): Promise<Category> {
  if (isUuid(nameOrId.trim())) return client.call(transactionCategoryRoutes.get, { id: nameOrId.trim() });
  const { group, name } = splitCategoryName(nameOrId);
  const search = name || group || nameOrId;
  const seen: Category[] = [];
  for await (const category of client.paginate(transactionCategoryRoutes.list, { search, page_size: 500 }))
    seen.push(category);
  const matches = seen.filter(
    (category) =>
      normalise(category.name) === normalise(name) &&
      (group === null || normalise(category.group) === normalise(group)),
  );
  let chosen = matches;
  if (matches.length > 1) {
    const { username } = await client.call(userRoutes.getMe, {});
    const own = matches.filter((category) => category.owner === username);
    if (own.length === 1) chosen = own;
  }
  if (chosen.length === 1) return chosen[0] as Category;
  if (chosen.length > 1)
    throw new UsageError(
      `Several categories match '${nameOrId}' (${chosen.map((c) => c.full_name).join("; ")}): give "Group : Name" or the id.`,
      "ambiguous_category",
    );
  throw new UsageError(
    `No category is named '${nameOrId}': see \`allot categories --search ${JSON.stringify(search)}\`.`,
    "unknown_category",
  );
}
