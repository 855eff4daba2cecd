import { z } from "zod";
import { nameText } from "../http/control-characters";
import {
  booleanField,
  currencyCode,
  dateField,
  dateTimeOutput,
  describeFields,
  emptyAsNull,
  moneyInput,
  moneyOutput,
  uuidField,
} from "../http/fields";
import { BUDGET_TYPES, FUNDING_TYPES } from "./budget-kinds";

export const FUNDING_PACES = ["ahead", "on_track", "behind"] as const;
export const BUDGET_ORDERING = ["name", "created_at", "balance"] as const;
export const BUDGET_NAME_MAX = 200;
export const BUDGET_MEMO_MAX = 512;
export const SCHEDULE_MAX = 1000;

export const NextFundingSchema = z
  .object(
    describeFields(
      { date: z.iso.date(), amount: moneyOutput(), amount_currency: z.string() },
      {
        date: ["The day of the next funding event.", "2026-06-01"],
        amount: ["What that event is expected to move into the budget.", "150.00"],
        amount_currency: ["The account's currency.", "USD"],
      },
    ),
  )
  .meta({ id: "NextFunding", description: "A budget's next funding event." });

/** One text for each field, request and response alike. */
const BUDGET_DOCS = {
  id: ["The budget's id.", "b7d3e1f2-4a6c-4b8e-9d0f-1a2b3c4d5e6f"],
  name: ["The budget's name, up to 200 characters; the Unallocated budget cannot be renamed.", "Groceries"],
  bank_account: [
    "The id of the account the budget divides; fixed at creation.",
    "7c4e2b19-5a3d-4f8e-a6b1-9d0c3e2f4a58",
  ],
  balance: ["The money in the budget now; kept by the service.", "212.40"],
  balance_currency: ["The account's currency.", "USD"],
  funded_amount: [
    "For a goal (`G`): transfers in minus transfers out so far; unused for other types.",
    "0.00",
  ],
  funded_amount_currency: ["The account's currency.", "USD"],
  target_balance: [
    "The amount to reach: the goal's target, or what a Recurring or Capped budget is filled to each cycle.",
    "400.00",
  ],
  target_balance_currency: ["The account's currency (optional in a request).", "USD"],
  funding_amount: [
    "With `funding_type` `F`: the amount moved in at each funding event; null otherwise.",
    "100.00",
  ],
  funding_amount_currency: ["The account's currency, or null with `funding_amount`.", "USD"],
  budget_type: [
    "`G` goal (saved toward once), `R` recurring (refreshed each recurrence), `A` the associated fill-up goal the service keeps for a Recurring budget, `C` capped (topped up to its target); fixed at creation.",
    "R",
  ],
  funding_type: [
    "`D` target date: each funding event moves what is needed to reach the target by `target_date` (or the next recurrence); `F` fixed amount: each moves `funding_amount`.",
    "D",
  ],
  target_date: ["With `funding_type` `D`: the day the target should be reached, or null.", null],
  fillup_goal: [
    "For a Recurring budget: the id of its fill-up goal (`A`); null for other types.",
    "c2e4f6a8-1b3d-4c5e-8f7a-9b0c1d2e3f4a",
  ],
  archived: ["Archived: hidden, no longer funded, its balance moved to Unallocated.", false],
  archived_at: ["When the budget was archived; null while it is not.", null],
  complete: ["The target is reached and the budget is not funded further.", false],
  paused: ["A paused budget is not funded on its schedule.", false],
  funding_schedule: [
    "When funding events fall: an RFC 5545 RRULE, optionally after a DTSTART line; empty for none.",
    "DTSTART:20260101T000000\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1",
  ],
  recurrence_schedule: [
    "For a Recurring budget, when its cycle refreshes: one RRULE of FREQ WEEKLY, MONTHLY or YEARLY with an optional INTERVAL and DTSTART (no BY* parts, COUNT or UNTIL); null otherwise.",
    "RRULE:FREQ=MONTHLY;INTERVAL=1",
  ],
  memo: ["A note, up to 512 characters, or null.", "Weekly shop and market"],
  auto_spend: [
    "Category full names (`group : name`): a transaction in one of them is allocated to this budget when created.",
    ["Food : Groceries"],
  ],
  next_funding: ["The next funding event and its expected amount; null when none is due.", null],
  next_recurrence: [
    "For a Recurring budget, the day its cycle next refreshes; null otherwise.",
    "2026-06-01",
  ],
  funding_pace: [
    "For a budget funded toward a date: `ahead`, `on_track` or `behind` its schedule; null when it does not apply.",
    "on_track",
  ],
  created_at: ["When the budget was created.", "2026-01-10T15:35:00Z"],
  modified_at: ["When the budget last changed.", "2026-05-01T06:00:00Z"],
} as const;

export const BudgetSchema = z
  .object(
    describeFields(
      {
        id: z.uuid(),
        name: z.string(),
        bank_account: z.uuid(),
        balance: moneyOutput(),
        balance_currency: z.string(),
        funded_amount: moneyOutput(),
        funded_amount_currency: z.string(),
        target_balance: moneyOutput(),
        target_balance_currency: z.string(),
        funding_amount: moneyOutput().nullable(),
        funding_amount_currency: z.string().nullable(),
        budget_type: z.enum(BUDGET_TYPES),
        funding_type: z.enum(FUNDING_TYPES),
        target_date: z.iso.date().nullable(),
        fillup_goal: z.uuid().nullable(),
        archived: z.boolean(),
        archived_at: dateTimeOutput().nullable(),
        complete: z.boolean(),
        paused: z.boolean(),
        funding_schedule: z.string(),
        recurrence_schedule: z.string().nullable(),
        memo: z.string().nullable(),
        auto_spend: z.array(z.string()),
        next_funding: NextFundingSchema.nullable(),
        next_recurrence: z.iso.date().nullable(),
        funding_pace: z.enum(FUNDING_PACES).nullable(),
        created_at: dateTimeOutput(),
        modified_at: dateTimeOutput(),
      },
      BUDGET_DOCS,
    ),
  )
  .meta({ id: "Budget", description: "A budget: a share of an account's money with its funding rules." });

export const BudgetUpdateResultSchema = BudgetSchema.extend({
  warnings: z.array(z.string()).meta({
    description: "What the change means for funding, e.g. a target the schedule can no longer reach in time.",
    example: [],
  }),
}).meta({ id: "BudgetUpdateResult", description: "The budget after the change, with warnings about it." });

/** One category name or a list of them (a form sends a single value as a plain string; typed as the list). */
const categoryList = () =>
  z.preprocess(
    (input: string[]) => {
      const v: unknown = input;
      return typeof v === "string" ? [v] : v;
    },
    z.array(z.string().max(201, "Ensure this field has no more than 201 characters.")).max(100),
  );

/**
 * Every writable field. Read-only ones (balance, funded_amount, fillup_goal, archived, …) are not
 * here: a client sending them back on PUT has them ignored, never written.
 */
export const budgetFields = describeFields(
  {
    name: nameText().trim().min(1, "This field may not be blank.").max(BUDGET_NAME_MAX),
    bank_account: uuidField(),
    budget_type: z.enum(BUDGET_TYPES),
    funding_type: z.enum(FUNDING_TYPES),
    target_balance: moneyInput(),
    target_balance_currency: emptyAsNull(currencyCode()),
    funding_amount: emptyAsNull(moneyInput()),
    funding_amount_currency: emptyAsNull(currencyCode()),
    target_date: emptyAsNull(dateField()),
    paused: booleanField(),
    funding_schedule: z.string().trim().max(SCHEDULE_MAX),
    recurrence_schedule: emptyAsNull(z.string().trim().max(SCHEDULE_MAX)),
    memo: z.string().max(BUDGET_MEMO_MAX).nullable(),
    auto_spend: categoryList(),
  },
  BUDGET_DOCS,
);
