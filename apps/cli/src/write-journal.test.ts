import { describe, expect, it } from "vitest";
import { readEnv } from "./env";
import { resumeNotice } from "./write-journal";

/* Where the CLI keeps its write journal and what it says when it resumes a write. Against the API: commands/write-journal.cli.test.ts. */

describe("the journal's file", () => {
  it("sits beside the config file, named after it: each ALLOT_CONFIG has its own", () => {
    expect(readEnv({ ALLOT_CONFIG: "/srv/allot/work.json" }, "/").writeJournalPath).toBe(
      "/srv/allot/work.write-journal.json",
    );
    expect(readEnv({ XDG_CONFIG_HOME: "/home/ann/.config" }, "/").writeJournalPath).toBe(
      "/home/ann/.config/allot/config.write-journal.json",
    );
  });
});

describe("resumeNotice", () => {
  const write = (method: string, routePath: string, path = routePath) => ({
    fingerprint: "f".repeat(64),
    method,
    routePath,
    path,
  });
  const now = new Date(2026, 2, 1, 18, 30);

  it("names the writes people know by their command, at the time it was first sent", () => {
    expect(resumeNotice(write("POST", "/v1/internal-transactions/"), new Date(2026, 2, 1, 14, 2), now)).toBe(
      "Resuming an unanswered transfer sent at 14:02 (same Idempotency-Key): the server applies it once.",
    );
    expect(
      resumeNotice(write("POST", "/v1/transactions/{id}/splits/", "/v1/transactions/t1/splits/"), now, now),
    ).toMatch(/^Resuming an unanswered split sent at 18:30 /);
    expect(
      resumeNotice(
        write("POST", "/v1/bank-accounts/{id}/sync-scrape/", "/v1/bank-accounts/a1/sync-scrape/"),
        now,
        now,
      ),
    ).toMatch(/^Resuming an unanswered import sent at /);
  });

  it("names any other by its method and path, and gives the day of one sent before today", () => {
    expect(
      resumeNotice(
        write("PATCH", "/v1/budgets/{id}/", "/v1/budgets/b1/"),
        new Date(2026, 1, 28, 23, 50),
        now,
      ),
    ).toBe(
      "Resuming an unanswered PATCH /v1/budgets/b1/ sent at 2026-02-28 23:50 (same Idempotency-Key): the server applies it once.",
    );
  });
});
