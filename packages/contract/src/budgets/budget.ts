import { z } from "zod";
import {
  booleanField,
  currencyCode,
  dateField,
  dateTimeOutput,
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
  .object({ date: z.iso.date(), amount: moneyOutput(), amount_currency: z.string() })
  .meta({ id: "NextFunding" });

export const BudgetSchema = z
  .object({
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
  })
  .meta({ id: "Budget" });

export const BudgetUpdateResultSchema = BudgetSchema.extend({ warnings: z.array(z.string()) }).meta({
  id: "BudgetUpdateResult",
});

/** Forms cannot send null: an empty value of a nullable field means null. */
const emptyAsNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? null : v), schema.nullable());

/** One category name or a list of them (a form sends a single value as a plain string). */
const categoryList = () =>
  z.preprocess(
    (v) => (typeof v === "string" ? [v] : v),
    z.array(z.string().max(201, "Ensure this field has no more than 201 characters.")).max(100),
  );

/**
 * Every writable field. Read-only ones (balance, funded_amount, fillup_goal, archived, …) are not
 * here: a client sending them back on PUT has them ignored, never written.
 */
export const budgetFields = {
  name: z.string().trim().min(1, "This field may not be blank.").max(BUDGET_NAME_MAX),
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
};
