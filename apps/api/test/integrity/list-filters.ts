import { pathParameters, type RouteSpec } from "@allot/contract/http/route";
import { z } from "zod";
import type { OwnerWorld } from "./owner-world";

/** One probe of a list: a non-owner filters on something of the owner's and must get nothing. */
interface FilterProbe {
  route: RouteSpec;
  parameter: string;
  value: string;
}

/** The owner's ids each uuid filter of a list is tried with. */
const OWNER_IDS: Record<string, (w: OwnerWorld) => string[]> = {
  bank_account: (w) => [w.account.id],
  budget: (w) => [w.budget.id, w.account.unallocated_budget],
  src_budget: (w) => [w.account.unallocated_budget],
  dst_budget: (w) => [w.budget.id],
  category: (w) => [w.category.id],
  transaction: (w) => [w.transaction.id],
};

/** The owner's words each text filter is tried with (a filter not named here is not probed). */
const OWNER_WORDS: Record<string, (w: OwnerWorld) => string[]> = {
  search: (w) => [w.budget.name, w.transaction.raw_description, w.category.group, w.category.name],
  category_group: (w) => [w.category.group],
  group: (w) => [w.category.group],
};

/**
 * Every filter of every list a non-owner may call, read from the contract: a uuid query parameter
 * must be named in OWNER_IDS (a new one fails the matrix until it is), text ones in OWNER_WORDS
 * are probed. Staff-only lists are left out: staff see users by design.
 */
export function filterProbes(routes: RouteSpec[], world: OwnerWorld) {
  const probes: FilterProbe[] = [];
  const unclassified: string[] = [];
  for (const route of routes) {
    if (route.method !== "GET" || pathParameters(route.path).length > 0) continue;
    if (route.access === "public" || route.access === "staff") continue;
    const schema = z.toJSONSchema(route.input, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, { format?: string; type?: string }>;
    };
    for (const [parameter, property] of Object.entries(schema.properties ?? {})) {
      const ids = OWNER_IDS[parameter];
      const words = OWNER_WORDS[parameter];
      if (property.format === "uuid" && !ids) unclassified.push(`${route.path}?${parameter}`);
      for (const value of [...(ids?.(world) ?? []), ...(words?.(world) ?? [])])
        probes.push({ route, parameter, value });
    }
  }
  return { probes, unclassified };
}
