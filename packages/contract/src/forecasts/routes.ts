import { z } from "zod";
import { uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import {
  FORECAST_DEFAULT_DAYS,
  FORECAST_MAX_DAYS,
  ForecastSchema,
  ForecastWhatIfsSchema,
  forecastQuery,
  WHAT_IF_MAX,
} from "./forecast";

const tags = ["forecast"];
const id = uuidField().meta({ description: "The bank account's id." });
const path = "/v1/bank-accounts/{id}/forecast/";
const reads =
  "It reads and never writes: no transfer, occurrence, event, change or email; run-funding with `as_of` = `until` would do exactly what it shows to the current state, when nothing else changes (it does not wait for imports, and says so in `assumptions`).";

/** The forecast routes (docs/spec/extensions.md §8), each keyed by the one name the API, the SDK and the CLI give it. */
export const forecastRoutes = {
  get: defineRoute({
    method: "GET",
    path,
    status: 200,
    summary: "The funding engine run forward: every budget and Unallocated through `until`",
    description: `Every fund and recur event from the account's state now through \`until\` (default ${FORECAST_DEFAULT_DAYS} days after the account's today, at most ${FORECAST_MAX_DAYS}), with each budget's start, end, funding and shortfall, Unallocated's lowest point and first negative day, and a series of end-of-day balances. ${reads}`,
    tags,
    access: "user",
    input: z.object({ id, ...forecastQuery }),
    output: ForecastSchema,
  }),

  whatIf: defineRoute({
    method: "POST",
    path,
    status: 200,
    summary: "The forecast with what-ifs: money in or out, new budgets, changed budgets — none stored",
    description: `The same forecast with what-ifs applied in memory only: \`items\` (money in or out on a day or a schedule, applied before the funding events of their day), \`budgets\` (new budgets, named \`new-1\`, \`new-2\`, … in the answer) and \`changes\` (as PATCH on a budget), at most ${WHAT_IF_MAX} of each; an invalid entry is 400 on its path, e.g. \`items.0.amount\`. A read: it takes no Idempotency-Key and records nothing. ${reads}`,
    tags,
    access: "user",
    reads: true,
    input: z.object({ id, ...forecastQuery, ...ForecastWhatIfsSchema.shape }),
    output: ForecastSchema,
  }),
};
