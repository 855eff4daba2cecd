import type { ActivityEventType } from "@allot/contract/activity/activity-event-types";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { activityCount, activityOf } from "../../../test/testing/activity";
import { invitationKit, type SentInvitation } from "../../../test/testing/invitation-test-kit";
import { type TestUser, useTestApp } from "../../../test/testing/test-app";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const INVITATION_TYPES: ActivityEventType[] = [
  "invitation.created",
  "invitation.accepted",
  "invitation.declined",
  "invitation.cancelled",
  "bank_account.owner_added",
];

/**
 * docs/spec/extensions.md §3: inviting, cancelling, accepting and declining are each one event
 * (accepting two: `invitation.accepted` and `bank_account.owner_added`). An answer is the invitee's,
 * whose mailed secret is the credential; neither the secret nor the owners' handle is ever recorded.
 */
describe.each(testEngines())("invitations in the activity trail (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  const events = (owner: TestUser, accountId: string) => activityOf(t, owner, accountId, INVITATION_TYPES);
  const eventCount = (owner: TestUser, accountId: string) => activityCount(t, owner, accountId);
  const listed = async (owner: TestUser, accountId: string, email: string) => {
    const invitation = (await kit.listForAccount(owner, accountId))
      .json()
      .find((row) => row.invitee_email === email);
    if (!invitation) throw new Error(`no invitation to ${email}`);
    return invitation;
  };
  const holdsNoCredential = (recorded: unknown, invitation: SentInvitation) => {
    const text = JSON.stringify(recorded);
    expect(text).not.toContain(invitation.secret);
    expect(text).not.toContain(invitation.handle);
  };

  it("records the invitation, then its acceptance and the new owner under the invitee's name", async () => {
    const owner = await t.user();
    const invitee = await t.user();
    const account = await kit.account(owner);

    const response = await kit.invite(owner, account.id, invitee.email);
    expect(response.statusCode, response.body).toBe(201);
    const invitation = await listed(owner, account.id, invitee.email);
    const [created] = await events(owner, account.id);
    expect(created).toEqual(
      expect.objectContaining({
        type: "invitation.created",
        bank_account: account.id,
        actor: { kind: "user", username: owner.username, api_key: null },
        request_id: response.headers["x-request-id"],
        summary: `${owner.username} invited ${invitee.email} to co-own the account`,
        data: { id: invitation.id, invitee_email: invitee.email, expires_at: invitation.expires_at },
      }),
    );

    const sent = {
      secret: kit.secretOf(mailbox.linkIn(await mailbox.latestTo(invitee.email), "/links/invitations/")),
      handle: invitation.token,
    };
    const accepted = await kit.accept(sent.secret);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const asInvitee = { kind: "user", username: invitee.username, api_key: null };
    const requestId = accepted.headers["x-request-id"];
    const all = await events(owner, account.id);
    // Newest first: the owner was added after the invitation was marked accepted.
    expect(all).toEqual([
      expect.objectContaining({
        type: "bank_account.owner_added",
        actor: asInvitee,
        request_id: requestId,
        summary: `${invitee.username} became an owner of the account`,
        data: { bank_account: account.id, owner: invitee.username, invitation: invitation.id },
      }),
      expect.objectContaining({
        type: "invitation.accepted",
        actor: asInvitee,
        request_id: requestId,
        summary: `${invitee.username} accepted the invitation to co-own the account`,
        data: { invitation: invitation.id, invitee_email: invitee.email },
      }),
      created,
    ]);
    holdsNoCredential(all, sent);
    // The new co-owner reads the same trail.
    expect(await events(invitee, account.id)).toEqual(all);

    // Accepted already: 400, and nothing more is recorded.
    expect((await kit.accept(sent.secret)).statusCode).toBe(400);
    expect(await events(owner, account.id)).toHaveLength(3);
  });

  it("records a cancellation by the inviter and a refusal by the invitee", async () => {
    const owner = await t.user();
    const account = await kit.account(owner);
    const cancelledEmail = kit.newAddress();
    const cancelled = await kit.invited(owner, account.id, cancelledEmail);
    const cancelledId = (await listed(owner, account.id, cancelledEmail)).id;
    const cancel = await kit.cancel(owner, account.id, cancelled.handle);
    expect(cancel.statusCode, cancel.body).toBe(200);

    const declinedEmail = kit.newAddress();
    const declined = await kit.invited(owner, account.id, declinedEmail);
    const declinedId = (await listed(owner, account.id, declinedEmail)).id;
    // An API key sent beside the secret changes nothing: the secret's holder answers.
    const decline = await kit.decline(declined.secret, await t.apiKey(owner));
    expect(decline.statusCode, decline.body).toBe(200);

    const [declineEvent, , cancelEvent] = await events(owner, account.id);
    expect(cancelEvent).toMatchObject({
      type: "invitation.cancelled",
      actor: { kind: "user", username: owner.username, api_key: null },
      request_id: cancel.headers["x-request-id"],
      summary: `${owner.username} cancelled the invitation of ${cancelledEmail}`,
      data: { invitation: cancelledId, invitee_email: cancelledEmail },
    });
    // The placeholder made for a new address has the address as its username.
    expect(declineEvent).toMatchObject({
      type: "invitation.declined",
      actor: { kind: "user", username: declinedEmail, api_key: null },
      request_id: decline.headers["x-request-id"],
      summary: `${declinedEmail} declined the invitation to co-own the account`,
      data: { invitation: declinedId, invitee_email: declinedEmail },
    });
    holdsNoCredential(await events(owner, account.id), cancelled);
    holdsNoCredential(await events(owner, account.id), declined);
  });

  it("shows a new co-owner the history before they joined, but not others' invitations from then", async () => {
    const owner = await t.user();
    const joiner = await t.user();
    const account = await kit.account(owner);
    const cancelledEmail = kit.newAddress();
    const cancelled = await kit.invited(owner, account.id, cancelledEmail);
    expect((await kit.cancel(owner, account.id, cancelled.handle)).statusCode).toBe(200);
    const declinedEmail = kit.newAddress();
    const declined = await kit.invited(owner, account.id, declinedEmail);
    expect((await kit.decline(declined.secret)).statusCode).toBe(200);
    const own = await kit.invited(owner, account.id, joiner.email);
    expect((await kit.accept(own.secret)).statusCode).toBe(200);
    const laterEmail = kit.newAddress();
    await kit.invited(owner, account.id, laterEmail);

    // The owner, there from the start, sees every event.
    const everything = await activityOf(t, owner, account.id);
    const ownerSees = everything.map((e) => e.type);
    expect(ownerSees.filter((type) => type.startsWith("invitation."))).toEqual([
      "invitation.created",
      "invitation.accepted",
      "invitation.created",
      "invitation.declined",
      "invitation.created",
      "invitation.cancelled",
      "invitation.created",
    ]);
    // The joiner: the money history and their own invitation, nothing of the people asked before
    // them; what happens once they are an owner, they see.
    const seen = await activityOf(t, joiner, account.id);
    const hidden = new Set(
      everything
        .filter(
          (e) => JSON.stringify(e).includes(cancelledEmail) || JSON.stringify(e).includes(declinedEmail),
        )
        .map((e) => e.id),
    );
    expect(hidden.size).toBe(4);
    expect(seen).toEqual(everything.filter((e) => !hidden.has(e.id)));
    expect(seen.some((e) => e.type === "bank_account.created")).toBe(true);
    expect(JSON.stringify(seen)).toContain(laterEmail);
    expect(await eventCount(joiner, account.id)).toBe(seen.length);
  });

  it("records nothing for a refused request", async () => {
    const owner = await t.user();
    const coOwner = await t.user();
    const account = await kit.account(owner);
    const first = await kit.invited(owner, account.id, coOwner.email);
    expect((await kit.accept(first.secret)).statusCode).toBe(200);
    const before = await eventCount(owner, account.id);

    // API keys may not invite (interactive login only); an owner is not invited twice; a handle
    // that is no invitation of the account is 404; a co-owner who did not invite may not cancel.
    const email = kit.newAddress();
    expect((await kit.invite(await t.apiKey(owner), account.id, email)).statusCode).toBe(403);
    expect((await kit.invite(owner, account.id, coOwner.email)).statusCode).toBe(409);
    expect((await kit.cancel(owner, account.id, "0".repeat(64))).statusCode).toBe(404);
    expect((await kit.accept("no-such-secret")).statusCode).toBe(404);
    const pending = await kit.invited(owner, account.id, email);
    const afterInvite = await eventCount(owner, account.id);
    expect(afterInvite).toBe(before + 1);
    expect((await kit.cancel(coOwner, account.id, pending.handle)).statusCode).toBe(403);
    await kit.age(pending, 8);
    expect((await kit.decline(pending.secret)).statusCode).toBe(400);

    expect(await eventCount(owner, account.id)).toBe(afterInvite);
  });
});
