import { FORECAST_DEFAULT_DAYS, FORECAST_MAX_DAYS } from "@allot/contract/forecasts/forecast";
import type { forecastRoutes } from "@allot/contract/forecasts/routes";
import type { RouteInput } from "@allot/contract/http/route";
import { budgets } from "@allot/db/schema/budgets";
import { eq } from "drizzle-orm";
import { findOwnedAccount } from "../account-access/find-owned-account";
import { accountTimeZone } from "../calendar/account-time-zone";
import { localDate } from "../calendar/local-days";
import { inFundingOrder } from "../funding/funding-budget";
import { TooManySteps } from "../funding/funding-plan";
import { readOpenOccurrences } from "../funding/open-occurrences";
import { addDays } from "../funding/schedule-events";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { forecastAssumptions } from "./forecast-assumptions";
import { forecastFunding } from "./forecast-funding";
import { seriesDates } from "./series-dates";
import { applyWhatIfs } from "./what-ifs";

/*
 * What one answer may hold (decision 0070): its events and items, and its series' cells (points
 * times budgets). Beyond them the request is refused on the field that narrows it.
 */
export const MAX_FORECAST_STEPS = 100_000;
export const MAX_SERIES_CELLS = 100_000;

/**
 * GET and POST /bank-accounts/{id}/forecast/ (docs/spec/extensions.md §8): the account's budgets and
 * open occurrences as they are now, read in one snapshot, the what-ifs applied in memory, and the
 * funding engine's plan through `until`. It reads only: nothing is locked or written.
 */
export async function forecastAccount(
  { db, actor, now }: UseCaseContext,
  { id, until: asked, interval = "month", ...whatIfs }: RouteInput<typeof forecastRoutes.whatIf>,
) {
  return db.transaction(
    async (tx) => {
      const account = await findOwnedAccount(tx, actor, id);
      const today = localDate(now, await accountTimeZone(tx, account.id));
      const until = asked ?? addDays(today, FORECAST_DEFAULT_DAYS);
      const latest = addDays(today, FORECAST_MAX_DAYS);
      if (until <= today || until > latest)
        throw ValidationFailed.on(
          "until",
          `Must be after today (${today}) and at most ${FORECAST_MAX_DAYS} days after it (${latest}).`,
        );
      const rows = inFundingOrder(
        await tx.select().from(budgets).where(eq(budgets.bankAccountId, account.id)),
      );
      const open = await readOpenOccurrences(tx, account.id);
      const world = { account, userId: actor.userId, today, until };
      const applied = await applyWhatIfs(tx, world, rows, whatIfs);

      const points = seriesDates(today, until, interval);
      const columns = applied.budgets.filter((budget) => !budget.archived).length;
      if (points.length * columns > MAX_SERIES_CELLS)
        throw ValidationFailed.on(
          "interval",
          `The series would hold ${points.length} points of ${columns} balances, more than ${MAX_SERIES_CELLS.toLocaleString("en")}: choose a longer interval or an earlier until.`,
        );
      let figures: ReturnType<typeof forecastFunding>;
      try {
        figures = forecastFunding({
          budgets: applied.budgets,
          open,
          items: applied.items,
          today,
          until,
          seriesDates: points,
          maxSteps: MAX_FORECAST_STEPS,
        });
      } catch (error) {
        if (!(error instanceof TooManySteps)) throw error;
        throw ValidationFailed.on(
          "until",
          `The forecast would hold more than ${MAX_FORECAST_STEPS.toLocaleString("en")} events and items: choose an earlier until.`,
        );
      }
      return {
        bank_account: account.id,
        currency: account.currency,
        from: today,
        until,
        assumptions: forecastAssumptions({ account, today, until, events: figures.events, whatIfs }),
        ...figures,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}
