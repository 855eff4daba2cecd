import { forecastRoutes } from "@allot/contract/forecasts/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../../test/testing/fixtures";
import { useTestApp } from "../../../test/testing/test-app";

describe.each(testEngines())("smoke (%s)", (engine) => {
  const t = useTestApp(engine);
  it("answers", async () => {
    const owner = await t.user();
    const as = t.as(owner);
    const account = await anAccount(t, owner);
    await aBudget(t, owner, account, { funding_schedule: "RRULE:FREQ=WEEKLY" });
    await aBudget(t, owner, account, { name: "Rent", budget_type: "R", funding_type: "D", target_balance: "300", funding_amount: null, funding_schedule: "RRULE:FREQ=WEEKLY", recurrence_schedule: "RRULE:FREQ=MONTHLY" });
    const r = await as.call(forecastRoutes.get, { id: account.id });
    console.log(r.statusCode, JSON.stringify(r.json(), null, 1).slice(0, 3000));
    const w = await as.call(forecastRoutes.whatIf, { id: account.id, interval: "week", items: [{ description: "Car repair", amount: "-1200", date: "2027-01-10" }, { description: "x", amount: "5" }], budgets: [{ name: "Trip", budget_type: "G", funding_type: "F", target_balance: "100", funding_amount: "25", funding_schedule: "RRULE:FREQ=DAILY" }] });
    console.log(w.statusCode, JSON.stringify(w.json(), null, 1).slice(0, 1500));
    expect(r.statusCode).toBe(200);
  });
});
