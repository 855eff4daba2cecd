import { banks } from "@allot/db/schema/banks";
import { setupTokens } from "@allot/db/schema/setup-tokens";
import { users } from "@allot/db/schema/users";
import { issueSetupToken } from "@allot/domain/setup/issue-setup-token";
import { beforeEach } from "vitest";
import type { TestApp } from "./test-app";

export const STRONG = "plum sofa quietly river lantern";

/** A complete first-run form: a user in Berlin and a euro bank. */
export const SETUP_FORM = {
  email: "first@example.com",
  name: "First Person",
  password: STRONG,
  confirm_password: STRONG,
  timezone: "Europe/Berlin",
  bank_name: "First Bank",
  bank_currency: "EUR",
};

/**
 * The first-run page's tests: each starts on a database with no user, no bank and no link (the
 * state of a fresh install), issues links as the server does at start, and submits the form as a
 * browser would.
 */
export function useFirstRun(t: TestApp) {
  beforeEach(async () => {
    await t.db.delete(users);
    await t.db.delete(banks);
    await t.db.delete(setupTokens);
  });
  return {
    /** What one start of the server prints: the page's path and its token. */
    async start() {
      const token = await issueSetupToken(t.db);
      if (!token) throw new Error("no first-run link: a user exists");
      return { token, path: `/links/setup/${token}` };
    },
    submit: (path: string, fields: Record<string, string> = SETUP_FORM) =>
      t.inject({
        method: "POST",
        url: path,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(fields).toString(),
      }),
    /** Every user and bank in the database. */
    async rows() {
      return {
        users: await t.db.select().from(users),
        banks: await t.db.select().from(banks),
      };
    },
  };
}
