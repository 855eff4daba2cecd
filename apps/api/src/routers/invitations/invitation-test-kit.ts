import { invitations } from "@allot/db/schema/invitations";
import { notifications } from "@allot/db/schema/notifications";
import { createBank } from "@allot/domain/banks/create-bank";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { TestUser, useTestApp } from "../../testing/test-app";
import type { useTestMailbox } from "../../testing/test-mailbox";

type Harness = ReturnType<typeof useTestApp>;
type Mailbox = ReturnType<typeof useTestMailbox>;

let addressCounter = 0;

/** Helpers for the invitation HTTP tests: accounts, invitations, the links emailed to invitees. */
export function invitationKit(t: Harness, mailbox: Mailbox) {
  const auth = (user: TestUser) => ({ authorization: user.bearer });

  const kit = {
    auth,
    /** An address nobody uses yet. */
    newAddress() {
      addressCounter += 1;
      return `invitee${addressCounter}-${Date.now()}@example.org`;
    },
    async account(owner: TestUser, name = "Household") {
      const bank = await createBank(t.db, { name: "Shared Bank", currency: "USD" });
      const response = await t.inject({
        method: "POST",
        url: "/api/v1/bank-accounts/",
        headers: auth(owner),
        payload: { name, bank: bank.id, posted_balance: "500.00", available_balance: "500.00" },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string; unallocated_budget: string; owners: string[] };
    },
    invite(caller: TestUser | string, accountId: string, email: string) {
      return t.inject({
        method: "POST",
        url: `/api/v1/bank-accounts/${accountId}/invite/`,
        headers: { authorization: typeof caller === "string" ? caller : caller.bearer },
        payload: { invitee_email: email },
      });
    },
    /** Invites over HTTP (201 expected) and answers the token from the link in the email. */
    async invited(inviter: TestUser, accountId: string, email: string) {
      const response = await kit.invite(inviter, accountId, email);
      expect(response.statusCode, response.body).toBe(201);
      const message = await mailbox.latestTo(email);
      expect(message.kind).toBe("invitation");
      return kit.tokenOf(mailbox.linkIn(message, "/links/invitations/"));
    },
    tokenOf(link: string) {
      const token = link.split("/links/invitations/")[1];
      if (!token) throw new Error(`no token in ${link}`);
      return token;
    },
    get(token: string, headers: Record<string, string> = {}) {
      return t.inject({ url: `/api/v1/invitations/${token}/`, headers });
    },
    accept(token: string, headers: Record<string, string> = {}) {
      return t.inject({ method: "POST", url: `/api/v1/invitations/${token}/accept/`, headers });
    },
    decline(token: string, headers: Record<string, string> = {}) {
      return t.inject({ method: "POST", url: `/api/v1/invitations/${token}/decline/`, headers });
    },
    cancel(caller: TestUser | string, accountId: string, token: string) {
      return t.inject({
        method: "POST",
        url: `/api/v1/bank-accounts/${accountId}/invitations/${token}/cancel/`,
        headers: { authorization: typeof caller === "string" ? caller : caller.bearer },
      });
    },
    listForAccount(caller: TestUser | string, accountId: string) {
      return t.inject({
        url: `/api/v1/bank-accounts/${accountId}/invitations/`,
        headers: { authorization: typeof caller === "string" ? caller : caller.bearer },
      });
    },
    listMine(caller: TestUser | string) {
      return t.inject({
        url: "/api/v1/users/me/invitations/",
        headers: { authorization: typeof caller === "string" ? caller : caller.bearer },
      });
    },
    async row(token: string) {
      const [row] = await t.db.select().from(invitations).where(eq(invitations.token, token));
      if (!row) throw new Error(`no invitation ${token}`);
      return row;
    },
    /** Moves an invitation's expiry (and creation, for the rolling limit) into the past. */
    async age(token: string, days: number) {
      const row = await kit.row(token);
      const shift = (date: Date) => new Date(date.getTime() - days * 86_400_000);
      await t.db
        .update(invitations)
        .set({ createdAt: shift(row.createdAt), expiresAt: shift(row.expiresAt) })
        .where(eq(invitations.id, row.id));
    },
    notificationsOf(user: TestUser) {
      return t.db.select().from(notifications).where(eq(notifications.userId, user.id));
    },
  };
  return kit;
}
