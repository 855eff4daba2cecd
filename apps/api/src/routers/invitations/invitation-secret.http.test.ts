import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { invitations } from "@allot/db/schema/invitations";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitationKit } from "../../../test/testing/invitation-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

/*
 * The listed `token` is the owners' handle for cancelling; the invitee's credential is a different
 * secret that only the invitation email carries (docs/decisions/0026). An inviter or co-owner who
 * reads the list cannot read, accept or decline in the invitee's place.
 */
describe.each(testEngines())("invitations: the mailed secret is not the listed token (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  const ownerIds = async (accountId: string) =>
    (await t.db.select().from(bankAccountOwners).where(eq(bankAccountOwners.bankAccountId, accountId))).map(
      (owner) => owner.userId,
    );

  it("answers 404 to the listed token on the public read, accept and decline, for the inviter and a co-owner", async () => {
    const inviter = await t.user();
    const coOwner = await t.user();
    const invitee = await t.user();
    const account = await kit.account(inviter, "Joint");
    expect(
      (await kit.accept((await kit.invited(inviter, account.id, coOwner.email)).secret)).statusCode,
    ).toBe(200);
    const invitation = await kit.invited(inviter, account.id, invitee.email);

    expect(invitation.handle).not.toBe(invitation.secret);
    const mine = (await kit.listMine(inviter)).json() as { token: string }[];
    expect(mine.map((row) => row.token)).toEqual([invitation.handle]);
    for (const lister of [inviter, coOwner]) {
      const listed = (await kit.listForAccount(lister, account.id)).json() as { token: string }[];
      expect(listed.map((row) => row.token)).toEqual([invitation.handle]);

      for (const caller of [null, lister]) {
        for (const answer of [
          await kit.get(invitation.handle, caller),
          await kit.accept(invitation.handle, caller),
          await kit.decline(invitation.handle, caller),
        ]) {
          expect(answer.statusCode, answer.body).toBe(404);
          expect(answer.json()).toEqual({ detail: expect.any(String), code: "not_found" });
        }
      }
    }
    expect((await kit.row(invitation)).status).toBe("pending");
    expect(await ownerIds(account.id)).not.toContain(invitee.id);
    expect(await kit.notificationsOf(inviter)).toHaveLength(1);

    // The invitee's emailed link is what works.
    const read = await kit.get(invitation.secret);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ status: "pending", invitee_email: invitee.email });
    expect((await kit.accept(invitation.secret)).statusCode).toBe(200);
    expect(await ownerIds(account.id)).toContain(invitee.id);
  });

  it("stores the mailed secret only as its digest, and each invitation gets its own", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const first = await kit.invited(owner, account.id, kit.newAddress());
    const second = await kit.invited(owner, account.id, kit.newAddress());
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.secret).not.toBe(first.secret);

    const stored = JSON.stringify(await t.db.select().from(invitations));
    for (const { secret, handle } of [first, second]) {
      expect(stored).toContain(handle);
      expect(stored).not.toContain(secret);
    }
    const row = await kit.row(first);
    expect(row.secretDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token).toBe(first.handle);
  });

  it("cancels by the listed token only, and the mailed secret then reads as cancelled", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const invitation = await kit.invited(owner, account.id, kit.newAddress());

    // The secret is no handle: the inviter never sees it, and it cancels nothing.
    expect((await kit.cancel(owner, account.id, invitation.secret)).statusCode).toBe(404);
    expect((await kit.row(invitation)).status).toBe("pending");
    const cancelled = await kit.cancel(owner, account.id, invitation.handle);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await kit.row(invitation)).status).toBe("cancelled");

    const read = await kit.get(invitation.secret);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ status: "cancelled" });
    expect((await kit.accept(invitation.secret)).json()).toEqual({
      non_field_errors: ["This invitation was cancelled."],
    });
  });

  it("shows a closed invitation's status alone: not the account's name, bank or owners", async () => {
    const owner = await t.user();
    const account = await kit.account(owner, "Private Savings");
    const accepted = await kit.invited(owner, account.id, kit.newAddress());
    const declined = await kit.invited(owner, account.id, kit.newAddress());
    const cancelled = await kit.invited(owner, account.id, kit.newAddress());
    const expired = await kit.invited(owner, account.id, kit.newAddress());
    expect((await kit.accept(accepted.secret)).statusCode).toBe(200);
    expect((await kit.decline(declined.secret)).statusCode).toBe(200);
    expect((await kit.cancel(owner, account.id, cancelled.handle)).statusCode).toBe(200);
    await kit.age(expired, 8);

    for (const [invitation, status] of [
      [accepted, "accepted"],
      [declined, "declined"],
      [cancelled, "cancelled"],
      [expired, "expired"],
    ] as const) {
      const read = await kit.get(invitation.secret);
      expect(read.statusCode, status).toBe(200);
      expect(read.json()).toEqual({ status });
      expect(read.body).not.toContain("Private Savings");
      expect(read.body).not.toContain(owner.email);
    }
  });
});
