import type { BankAccountRow } from "../account-access/find-owned-account";
import { countOf } from "../events/summary-text";
import type { ForecastFigures } from "./forecast-funding";
import type { WhatIfs } from "./what-ifs";

/** What a forecast takes for granted, in words, for the answer's `assumptions`. */
export function forecastAssumptions({
  account,
  today,
  until,
  events,
  whatIfs,
}: {
  account: BankAccountRow;
  today: string;
  until: string;
  events: ForecastFigures["events"];
  whatIfs: WhatIfs;
}): string[] {
  const said = [
    `Starts from the balances of ${today} (the account's today) and assumes nothing else changes through ${until}: no other transaction, transfer or budget edit.`,
    account.autoFundingEnabled
      ? "Funding runs on every event's day, as the scheduler runs it."
      : "Automatic funding is off for this account: these events happen only when someone runs funding (run-funding).",
  ];
  const gate = account.lastPostedThrough;
  if (gate !== null && gate < until)
    said.push(
      `Imports keep up: a real run funds events dated after the latest imported posting date (${gate}) only once an import reaches them; the forecast does not wait.`,
    );
  const overdue = events.filter((event) => event.kind !== "item" && event.date < today);
  const [first] = overdue;
  if (first)
    said.push(
      `${countOf(overdue.length, "event")} due before today (the first on ${first.date}) ${overdue.length === 1 ? "has" : "have"} not run yet: the forecast runs ${overdue.length === 1 ? "it" : "them"} first, as the next run would.`,
    );
  const items = whatIfs.items?.length ?? 0;
  const added = whatIfs.budgets?.length ?? 0;
  const changes = whatIfs.changes?.length ?? 0;
  if (items + added + changes > 0)
    said.push(
      `What-ifs applied in memory only, never stored: ${countOf(items, "item")}, ${countOf(added, "new budget")}, ${countOf(changes, "change")}.`,
    );
  return said;
}
