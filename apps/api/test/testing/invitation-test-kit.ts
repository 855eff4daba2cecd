import { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { notifications } from "@allot/db/schema/notifications";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { aBank, anAccount } from "./fixtures";
import type { TestUser, useTestApp } from "./test-app";
import type { Caller } from "./test-client";
import type { useTestMailbox } from "./test-mailbox";

type Harness = ReturnType<typeof useTestApp>;
type Mailbox = ReturnType<typeof useTestMailbox>;

let addressCounter = 0;

/**
 * An invitation as its two parties hold it: the secret from the link emailed to the invitee, and
 * the handle (`token`) the inviter's account list shows.
 */
export interface SentInvitation {
  secret: string;
  handle: string;
}

/** Helpers for the invitation HTTP tests: accounts, invitations, the links emailed to invitees. */
export function invitationKit(t: Harness, mailbox: Mailbox) {
  const kit = {
    /** An address nobody uses yet. */
    newAddress() {
      addressCounter += 1;
      return `invitee${addressCounter}-${Date.now()}@example.org`;
    },
    /** An account at a bank named Shared Bank (invitations name it), holding 500.00. */
    account: async (owner: TestUser, name = "Household") =>
      anAccount(t, owner, { name, bank: (await aBank(t, { name: "Shared Bank" })).id, balance: "500.00" }),
    invite: (caller: TestUser | string, accountId: string, email: string) =>
      t.as(caller).call(invitationRoutes.invite, { id: accountId, invitee_email: email }),
    /**
     * Invites over HTTP (201 expected): the secret from the link in the email, and the handle from
     * the inviter's list of the account's pending invitations.
     */
    async invited(inviter: TestUser, accountId: string, email: string): Promise<SentInvitation> {
      const response = await kit.invite(inviter, accountId, email);
      expect(response.statusCode, response.body).toBe(201);
      const message = await mailbox.latestTo(email);
      expect(message.kind).toBe("invitation");
      const secret = kit.secretOf(mailbox.linkIn(message, "/links/invitations/"));
      const list = await kit.listForAccount(inviter, accountId);
      expect(list.statusCode, list.body).toBe(200);
      const listed = list
        .json()
        .find((invitation) => invitation.invitee_email.toLowerCase() === email.trim().toLowerCase());
      if (!listed) throw new Error(`invitation to ${email} not listed: ${list.body}`);
      return { secret, handle: listed.token };
    },
    secretOf(link: string) {
      const secret = link.split("/links/invitations/")[1];
      if (!secret) throw new Error(`no secret in ${link}`);
      return secret;
    },
    /** The public routes on a secret from an emailed link: with no credential unless `caller` is given. */
    get: (token: string, caller: Caller = null) => t.as(caller).call(invitationRoutes.get, { token }),
    accept: (token: string, caller: Caller = null) => t.as(caller).call(invitationRoutes.accept, { token }),
    decline: (token: string, caller: Caller = null) => t.as(caller).call(invitationRoutes.decline, { token }),
    cancel: (caller: TestUser | string, accountId: string, handle: string) =>
      t.as(caller).call(invitationRoutes.cancel, { id: accountId, token: handle }),
    listForAccount: (caller: TestUser | string, accountId: string) =>
      t.as(caller).call(invitationRoutes.listForAccount, { id: accountId }),
    listMine: (caller: TestUser | string) => t.as(caller).call(invitationRoutes.listMine),
    async row(invitation: SentInvitation) {
      const [row] = await t.db.select().from(invitations).where(eq(invitations.token, invitation.handle));
      if (!row) throw new Error(`no invitation ${invitation.handle}`);
      return row;
    },
    /** Moves an invitation's expiry (and creation, for the rolling limit) into the past. */
    async age(invitation: SentInvitation, days: number) {
      const row = await kit.row(invitation);
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
