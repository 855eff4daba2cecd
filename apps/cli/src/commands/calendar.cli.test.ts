import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestApp } from "@allot/api/test/testing/test-app";
import { userRoutes } from "@allot/contract/users/routes";
import { testEngines } from "@allot/db/testing/test-databases";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { createClient } from "@allot/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/testing/run-cli";

// The real CLI runs several times (about a second each to start, more on a busy machine).
const SLOW = { timeout: 240_000 };

/*
 * A Berlin user's statement row dated 2025-10-05 is shown, found and filtered as 2025-10-05 —
 * the day in the account's time zone — whatever zone the CLI itself runs in (decision 0027).
 */
describe.each(testEngines())("the CLI shows and filters days in the account's calendar (%s)", (engine) => {
  const t = useTestApp(engine);
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    folder = await mkdtemp(join(tmpdir(), "allot-cli-calendar-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it(
    "imports a CSV row of 2025-10-05 in Berlin and lists, shows and filters it on that day",
    SLOW,
    async () => {
      const user = await t.user();
      const patched = await t.as(user).call(userRoutes.updateMe, { timezone: "Europe/Berlin" });
      expect(patched.statusCode).toBe(200);
      const key = (await t.apiKey(user)).replace(/^Api-Key /, "");
      const bank = await createBank(internalContext(t.db, "cli"), {
        name: `Calendar Bank ${Date.now()}`,
        currency: "EUR",
      });
      const client = createClient({ baseUrl, auth: { apiKey: key } });
      const account = await client.bankAccounts.create({
        name: "Girokonto",
        bank: bank.id,
        posted_balance: "0.00",
        available_balance: "0.00",
      });
      const csv = join(folder, "statement.csv");
      await writeFile(csv, "Date,Amount,Description\n2025-10-05,-12.50,BAECKEREI\n2025-10-06,-3.00,KIOSK\n");
      // The CLI runs in Los Angeles: its own zone must not move the account's days.
      const env = {
        ALLOT_API_KEY: key,
        ALLOT_BASE_URL: baseUrl,
        ALLOT_CONFIG: join(folder, "config.json"),
        TZ: "America/Los_Angeles",
      };
      const allot = (...args: string[]) => runCli([...args, "--account", account.id], { env });

      const imported = await allot(
        "import",
        "csv",
        csv,
        "--map",
        "date=Date,amount=Amount,description=Description",
        "--no-balance-check",
      );
      expect(imported.stderr).toBe("");
      expect(imported.code).toBe(0);

      const table = await allot("transactions", "list");
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/2025-10-05 +BAECKEREI/);
      expect(table.stdout).toMatch(/2025-10-06 +KIOSK/);
      expect(table.stdout).not.toContain("2025-10-04");

      const day = await allot("transactions", "list", "--from", "2025-10-05", "--to", "2025-10-05", "--json");
      expect(day.code).toBe(0);
      const rows = day.json<{ id: string; raw_description: string; transaction_date: string }[]>();
      expect(rows.map((row) => row.raw_description)).toEqual(["BAECKEREI"]);
      expect(rows[0]?.transaction_date).toBe("2025-10-04T22:00:00.000Z");

      const show = await runCli(["transactions", "show", rows[0]?.id ?? ""], { env });
      expect(show.code).toBe(0);
      expect(show.stdout).toMatch(/Date +2025-10-05/);
      expect(show.stdout).toMatch(/Posted +2025-10-05/);

      const shown = await runCli(["accounts", "show", account.id], { env });
      expect(shown.stdout).toMatch(/time zone +Europe\/Berlin/);
    },
  );
});
