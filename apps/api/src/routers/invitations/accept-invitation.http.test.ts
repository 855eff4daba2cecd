import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitationKit } from "../../../test/testing/invitation-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const NEW_PASSWORD = "violet tangerine harbour 42";

describe.each(testEngines())("invitations: accept and decline (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  const ownersOf = (accountId: string) =>
    t.db.select().from(bankAccountOwners).where(eq(bankAccountOwners.bankAccountId, accountId));

  it("takes a new user from the email to a password login that sees the shared account", async () => {
    const owner = await t.user();
    const account = await kit.account(owner, "Family Checking");
    const email = kit.newAddress();
    const invitation = await kit.invited(owner, account.id, email);
    const token = invitation.secret;

    const read = await kit.get(token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      id: (await kit.row(invitation)).id,
      status: "pending",
      invitee_email: email,
      bank_account_name: "Family Checking",
      bank_name: "Shared Bank",
      current_owners: [owner.email],
      is_new_user: true,
      expires_at: expect.stringMatching(ISO_DATE_TIME),
    });

    const accepted = await kit.accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.body).toBe("");
    const row = await kit.row(invitation);
    expect(row.status).toBe("accepted");
    expect(row.acceptedAt).toBeInstanceOf(Date);
    const [invitee] = await t.db.select().from(users).where(eq(users.email, email));
    expect(invitee).toMatchObject({ isActive: true, passwordHash: null });
    expect((await ownersOf(account.id)).map((o) => o.userId).sort()).toEqual([owner.id, invitee?.id].sort());

    // Acceptance issues no credential: the way in is the reset email.
    expect(accepted.headers["set-cookie"]).toBeUndefined();
    const reset = await mailbox.latestTo(email);
    expect(reset.kind).toBe("password_reset");
    const resetToken = mailbox.linkIn(reset, "/links/password-reset/").split("/links/password-reset/")[1];
    const confirmed = await t.anonymous.call(credentialRoutes.confirmPasswordReset, {
      token: resetToken as string,
      new_password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(204);

    const bearer = await t.login(email, NEW_PASSWORD);
    const me = await t.as(bearer).call(userRoutes.getMe);
    expect(me.json()).toMatchObject({ username: email, email, has_usable_password: true });
    const accounts = await t.as(bearer).call(bankAccountRoutes.list);
    expect(accounts.statusCode).toBe(200);
    expect(accounts.json().results).toEqual([
      expect.objectContaining({ id: account.id, name: "Family Checking", owners: [owner.username, email] }),
    ]);

    // Closed now: the link shows its status alone, not who owns the account.
    expect((await kit.get(token)).json()).toEqual({ status: "accepted" });
  });

  it("adds an existing user without sending a reset email, and notifies the inviter", async () => {
    const owner = await t.user();
    const existing = await t.user();
    const account = await kit.account(owner);
    const invitation = await kit.invited(owner, account.id, existing.email);
    expect((await kit.get(invitation.secret)).json()).toMatchObject({ is_new_user: false });

    expect((await kit.accept(invitation.secret)).statusCode).toBe(200);
    const messages = await mailbox.messagesTo(existing.email);
    expect(messages.map((m) => m.kind)).toEqual(["invitation"]);
    const seen = await t.as(existing).call(bankAccountRoutes.get, { id: account.id });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().owners).toEqual([owner.username, existing.username]);

    const notes = await kit.notificationsOf(owner);
    expect(notes).toEqual([
      expect.objectContaining({
        kind: "invitation_accepted",
        bankAccountId: account.id,
        payload: {
          invitation: (await kit.row(invitation)).id,
          invitee_email: existing.email,
          bank_account_name: "Household",
        },
      }),
    ]);
    expect(await kit.notificationsOf(existing)).toEqual([]);
  });

  it("declines: nobody is added, the placeholder stays inactive, the inviter is notified", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const email = kit.newAddress();
    const invitation = await kit.invited(owner, account.id, email);
    const token = invitation.secret;

    const declined = await kit.decline(token);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.body).toBe("");
    const row = await kit.row(invitation);
    expect(row.status).toBe("declined");
    expect(row.declinedAt).toBeInstanceOf(Date);
    expect((await ownersOf(account.id)).map((o) => o.userId)).toEqual([owner.id]);
    const [placeholder] = await t.db.select().from(users).where(eq(users.email, email));
    expect(placeholder?.isActive).toBe(false);
    expect((await mailbox.messagesTo(email)).map((m) => m.kind)).toEqual(["invitation"]);
    expect((await kit.notificationsOf(owner)).map((n) => [n.kind, n.bankAccountId])).toEqual([
      ["invitation_declined", account.id],
    ]);

    expect((await kit.get(token)).json()).toEqual({ status: "declined" });
    const accept = await kit.accept(token);
    expect(accept.statusCode).toBe(400);
    expect(accept.json()).toEqual({ non_field_errors: ["This invitation has already been declined."] });
    expect((await kit.decline(token)).statusCode).toBe(400);
  });

  it("refuses to accept or decline an accepted invitation (400)", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const invitation = await kit.invited(owner, account.id, kit.newAddress());
    expect((await kit.accept(invitation.secret)).statusCode).toBe(200);
    const again = await kit.accept(invitation.secret);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: ["This invitation has already been accepted."] });
    expect((await kit.decline(invitation.secret)).statusCode).toBe(400);
    expect((await kit.row(invitation)).status).toBe("accepted");
  });

  it("adds the owner once when the same invitation is accepted twice at once", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const email = kit.newAddress();
    const invitation = await kit.invited(owner, account.id, email);
    const token = invitation.secret;
    const answers = await Promise.all([kit.accept(token), kit.accept(token), kit.decline(token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    expect(await ownersOf(account.id)).toHaveLength(2);
    expect((await kit.row(invitation)).status).toBe("accepted");
    expect((await mailbox.messagesTo(email)).map((m) => m.kind)).toEqual(["invitation", "password_reset"]);
    expect(await kit.notificationsOf(owner)).toHaveLength(1);
  });

  it("answers 404 for an unknown or malformed token", async () => {
    // "\u0000" goes out percent-encoded: the path segment is %00.
    for (const token of ["unknown-token", "x".repeat(300), "\u0000"]) {
      expect((await kit.get(token)).statusCode, token).toBe(404);
      expect((await kit.accept(token)).statusCode, token).toBe(404);
      expect((await kit.decline(token)).statusCode, token).toBe(404);
    }
  });

  it("needs no credential, works with a valid one, and refuses a bad one with 401", async () => {
    const owner = await t.user();
    const bystander = await t.user();
    const account = await kit.account(owner);
    const invitation = await kit.invited(owner, account.id, kit.newAddress());
    const token = invitation.secret;
    for (const bad of ["Bearer not-a-token", "Api-Key allot_nope"]) {
      expect((await kit.get(token, bad)).statusCode).toBe(401);
      expect((await kit.accept(token, bad)).statusCode).toBe(401);
      expect((await kit.decline(token, bad)).statusCode).toBe(401);
    }
    expect((await kit.row(invitation)).status).toBe("pending");

    expect((await kit.get(token, bystander)).statusCode).toBe(200);
    // The mailed secret is the credential: whoever calls with it, the invitee is the one added.
    expect((await kit.accept(token, bystander)).statusCode).toBe(200);
    const owners = (await ownersOf(account.id)).map((o) => o.userId);
    expect(owners).not.toContain(bystander.id);
    expect(owners).toContain((await kit.row(invitation)).inviteeId);
  });
});
