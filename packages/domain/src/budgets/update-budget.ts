import { BUDGET_TYPE } from "@allot/contract/budgets/budget-kinds";
import type { budgetRoutes } from "@allot/contract/budgets/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { formatMoney, type Money, toMoney } from "@allot/contract/money";
import { budgets } from "@allot/db/schema/budgets";
import { eq } from "drizzle-orm";
import { accountToday } from "../calendar/account-time-zone";
import type { AccountChange } from "../events/record-event";
import { moneyText } from "../events/summary-text";
import { dropMissedEvents } from "../funding/drop-missed-events";
import type { BudgetRow } from "../ledger/balances";
import { latchedComplete } from "../ledger/goal-complete";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { addError, type FieldErrors } from "../shared/validation";
import { type BudgetColumns, prepareBudgetChanges } from "./budget-changes";
import { fillupName } from "./budget-fields";
import { budgetRuleErrors } from "./budget-rules";
import { loadBudgetView } from "./budget-view";
import { writeOwnedBudget } from "./find-owned-budget";

const IMMUTABLE = "This field cannot be changed once the budget exists.";
const MIRRORED = "A fill-up goal follows its Recurring budget: change that budget instead.";
// What a fill-up goal takes from its Recurring budget.
const MIRRORED_FIELDS: Field[] = ["name", "target_balance", "funding_schedule", "paused"];
const FILLUP_AUTO_SPEND = "A fill-up goal takes no auto_spend: list the categories on its Recurring budget.";

// Request field → column, for the comparisons below.
const FIELD_COLUMNS = {
  name: "name",
  funding_type: "fundingType",
  target_balance: "targetBalance",
  funding_amount: "fundingAmount",
  target_date: "targetDate",
  paused: "paused",
  funding_schedule: "fundingSchedule",
  recurrence_schedule: "recurrenceSchedule",
  memo: "memo",
  auto_spend: "autoSpend",
} as const satisfies Record<string, keyof BudgetColumns>;

type Field = keyof typeof FIELD_COLUMNS;

// Amounts compare as amounts ("5" is "5.00"); every other column, text included, as it is.
const MONEY_COLUMNS: ReadonlySet<keyof BudgetColumns> = new Set(["targetBalance", "fundingAmount"]);

function sameValue(column: keyof BudgetColumns, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined)
    return (a === null || a === undefined) && (b === null || b === undefined);
  if (MONEY_COLUMNS.has(column)) return toMoney(a as Money).eq(toMoney(b as Money));
  if (Array.isArray(a) && Array.isArray(b)) return a.join("\u0000") === b.join("\u0000");
  return a === b;
}

/** The request fields whose prepared value differs from the stored one. */
function changedFields(row: BudgetRow, columns: BudgetColumns): Field[] {
  return (Object.keys(FIELD_COLUMNS) as Field[]).filter((field) => {
    const column = FIELD_COLUMNS[field];
    return column in columns && !sameValue(column, columns[column], row[column]);
  });
}

/**
 * The event of a PUT or PATCH (decision 0031): `budget.completed` when it latched a Goal complete,
 * `budget.paused` / `budget.resumed` when paused is the only value it changed, else
 * `budget.updated`, also for a request that changed nothing. `changes` names the fields sent.
 */
function budgetEvent(
  currency: string,
  before: BudgetRow,
  after: BudgetRow,
  sent: Field[],
  changed: Field[],
  warnings: string[],
): AccountChange {
  const base = { accountId: before.bankAccountId, data: { budget: before.id, changes: sent } };
  if (after.complete && !before.complete)
    return {
      ...base,
      type: "budget.completed",
      says: `completed the Goal ${after.name} by setting its target to ${moneyText(after.targetBalance, currency)}`,
      data: {
        ...base.data,
        target_balance: formatMoney(after.targetBalance),
        funded_amount: formatMoney(after.fundedAmount),
      },
    };
  if (changed.length === 1 && changed[0] === "paused")
    return after.paused
      ? { ...base, type: "budget.paused", says: `paused the budget ${after.name}` }
      : {
          ...base,
          type: "budget.resumed",
          says: `resumed the budget ${after.name}`,
          data: { ...base.data, warnings },
        };
  const renamed = after.name !== before.name ? ` (formerly ${before.name})` : "";
  return { ...base, type: "budget.updated", says: `updated the budget ${after.name}${renamed}` };
}

/**
 * PUT and PATCH. bank_account and budget_type may only repeat the stored value (400 on the field);
 * read-only fields such as balance are not part of the input and are ignored. The per-type rules
 * hold for the budget as it will be stored. The Unallocated budget keeps its name (400 on name)
 * and its service-defined settings, only memo and paused change. A fill-up goal's name, target and
 * funding schedule follow its Recurring budget: edits there are mirrored onto it, edits on the
 * fill-up itself are 400, as is giving it auto_spend entries; the same holds for paused. Resuming a
 * paused budget drops the events it missed, and `warnings` names them.
 */
export async function updateBudget(
  ctx: UseCaseContext,
  { id, ...input }: RouteInput<typeof budgetRoutes.update>,
) {
  const { actor } = ctx;
  return writeOwnedBudget(ctx, id, async (tx, { account, budget, fillup }) => {
    const errors: FieldErrors = {};
    if (input.bank_account !== undefined && input.bank_account.toLowerCase() !== budget.bankAccountId)
      addError(errors, "bank_account", IMMUTABLE);
    if (input.budget_type !== undefined && input.budget_type !== budget.budgetType)
      addError(errors, "budget_type", IMMUTABLE);
    const prepared = await prepareBudgetChanges(tx, actor.userId, account, input, errors, budget.autoSpend);
    const { columns } = prepared;
    const changed = changedFields(budget, columns);

    if (budget.isUnallocated) {
      for (const field of changed) {
        if (field === "memo" || field === "paused") continue;
        addError(
          errors,
          field,
          field === "name"
            ? "The Unallocated budget cannot be renamed."
            : "The Unallocated budget's settings are fixed; only memo and paused change.",
        );
      }
    } else {
      if (budget.budgetType === BUDGET_TYPE.fillup) {
        for (const field of changed) if (MIRRORED_FIELDS.includes(field)) addError(errors, field, MIRRORED);
        // Spending is routed to the Recurring budget, never to its fill-up (clearing a list is fine).
        if (changed.includes("auto_spend") && (columns.autoSpend ?? []).length > 0)
          addError(errors, "auto_spend", FILLUP_AUTO_SPEND);
      }
      budgetRuleErrors(
        {
          budgetType: budget.budgetType,
          fundingType: columns.fundingType ?? budget.fundingType,
          targetBalance: prepared.targetBalance ?? toMoney(budget.targetBalance),
          fundingAmount:
            prepared.fundingAmount !== undefined
              ? prepared.fundingAmount
              : budget.fundingAmount === null
                ? null
                : toMoney(budget.fundingAmount),
          targetDate: columns.targetDate !== undefined ? columns.targetDate : budget.targetDate,
          recurrenceSchedule:
            columns.recurrenceSchedule !== undefined ? columns.recurrenceSchedule : budget.recurrenceSchedule,
        },
        errors,
      );
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    const sent = (Object.keys(FIELD_COLUMNS) as Field[]).filter((field) => input[field] !== undefined);
    if (changed.length === 0)
      return {
        event: budgetEvent(account.currency, budget, budget, sent, changed, []),
        result: { ...(await loadBudgetView(tx, budget)), warnings: [] as string[] },
      };

    const updates: BudgetColumns = {};
    for (const field of changed)
      Object.assign(updates, { [FIELD_COLUMNS[field]]: columns[FIELD_COLUMNS[field]] });
    // A Goal whose target drops to what it is already funded latches complete, as funding would.
    if (
      !budget.complete &&
      latchedComplete({
        budgetType: budget.budgetType,
        isUnallocated: budget.isUnallocated,
        targetBalance: toMoney(updates.targetBalance ?? budget.targetBalance),
        fundedAmount: toMoney(budget.fundedAmount),
        complete: false,
      })
    )
      updates.complete = true;
    const [updated] = await tx.update(budgets).set(updates).where(eq(budgets.id, budget.id)).returning();
    if (!updated) throw new Error("budget update returned nothing");

    if (fillup) {
      const mirror: BudgetColumns = {};
      if (changed.includes("name") && updates.name !== undefined) mirror.name = fillupName(updates.name);
      if (changed.includes("target_balance")) mirror.targetBalance = updates.targetBalance;
      if (changed.includes("funding_schedule")) mirror.fundingSchedule = updates.fundingSchedule;
      if (changed.includes("paused")) mirror.paused = updates.paused;
      if (Object.keys(mirror).length > 0)
        await tx.update(budgets).set(mirror).where(eq(budgets.id, fillup.id));
    }
    const resumed = changed.includes("paused") && updated.paused === false;
    const warnings = resumed
      ? await dropMissedEvents(tx, fillup ? [updated, fillup] : [updated], await accountToday(tx, account.id))
      : [];
    const [current] = resumed ? await tx.select().from(budgets).where(eq(budgets.id, budget.id)) : [updated];
    return {
      event: budgetEvent(account.currency, budget, updated, sent, changed, warnings),
      result: { ...(await loadBudgetView(tx, current ?? updated)), warnings },
    };
  });
}
