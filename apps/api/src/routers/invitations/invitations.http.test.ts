import { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { users } from "@allot/db/schema/users";
import { testEngines } from "@allot/db/testing/test-databases";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { testVault } from "@allot/domain/testing/test-vault";
import { jobsFor } from "@allot/scheduler/jobs";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitationKit } from "../../../test/testing/invitation-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { temporaryAttachmentStore } from "../../../test/testing/test-attachments";
import { useTestMailbox } from "../../../test/testing/test-mailbox";

const jobs = jobsFor(
  { changesRetentionDays: 90 },
  { attachments: temporaryAttachmentStore().store, vault: () => testVault },
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DAY_MS = 86_400_000;

describe.each(testEngines())("invitations: invite, list, cancel (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const kit = invitationKit(t, mailbox);

  describe("invite", () => {
    it("answers 201 with no body, makes an inactive placeholder and emails the link naming inviter and account", async () => {
      const owner = await t.user({ name: "Ada Lovelace" });
      const account = await kit.account(owner, "Family Checking");
      const email = kit.newAddress();
      const response = await kit.invite(owner, account.id, `  ${email}  `);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.body).toBe("");

      const [placeholder] = await t.db.select().from(users).where(eq(users.email, email));
      expect(placeholder).toMatchObject({ username: email, passwordHash: null, isActive: false });

      const message = await mailbox.latestTo(email);
      expect(message.kind).toBe("invitation");
      expect(message.subject).toContain("Ada Lovelace");
      expect(message.subject).toContain("Family Checking");
      expect(message.text).toContain(owner.email);
      expect(message.text).toContain("Shared Bank");
      const link = mailbox.linkIn(message, "/links/invitations/");
      expect(link.startsWith("http://allot.test/links/invitations/")).toBe(true);
      expect(message.html).toContain(link);

      const [listed] = (await kit.listForAccount(owner, account.id)).json();
      if (!listed) throw new Error("no invitation listed");
      const row = await kit.row({ secret: kit.secretOf(link), handle: listed.token });
      expect(row).toMatchObject({ status: "pending", inviterId: owner.id, inviteeId: placeholder?.id });
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(7 * DAY_MS);
    });

    it("reuses an existing user, and one placeholder for an address invited to two accounts", async () => {
      const owner = await t.user();
      const existing = await t.user();
      const [first, second] = [await kit.account(owner), await kit.account(owner)];
      await kit.invited(owner, first.id, existing.email.toUpperCase());
      const email = kit.newAddress();
      await kit.invited(owner, first.id, email);
      await kit.invited(owner, second.id, email);

      const rows = await t.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
      expect(rows).toHaveLength(1);
      const [toExisting] = await t.db
        .select()
        .from(invitations)
        .where(eq(invitations.inviteeId, existing.id));
      expect(toExisting?.inviteeEmail).toBe(existing.email);
    });

    it("answers 409 to an owner's address, then 409 while one is pending, before the limit", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const own = await kit.invite(owner, account.id, owner.email.toUpperCase());
      expect(own.statusCode).toBe(409);
      expect(own.json()).toEqual({ detail: expect.any(String), code: "already_owner" });

      const email = kit.newAddress();
      await kit.invited(owner, account.id, email);
      const again = await kit.invite(owner, account.id, email.toUpperCase());
      expect(again.statusCode).toBe(409);
      expect(again.json<{ code: string }>().code).toBe("invitation_pending");
    });

    it("refuses the 6th invitation to one address for one account within 30 days with 429 and Retry-After", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const other = await kit.account(owner);
      const email = kit.newAddress();
      // Five sent and cancelled at 1..5 days ago: cancelling does not give the quota back.
      for (let day = 5; day >= 1; day -= 1) {
        const invitation = await kit.invited(owner, account.id, email);
        expect((await kit.cancel(owner, account.id, invitation.handle)).statusCode).toBe(200);
        await kit.age(invitation, day);
      }
      const sixth = await kit.invite(owner, account.id, email);
      expect(sixth.statusCode, sixth.body).toBe(429);
      expect(sixth.json<{ code: string }>().code).toBe("throttled");
      // The oldest (5 days ago) leaves the window in 25 days.
      const retryAfter = Number(sixth.headers["retry-after"]);
      expect(Math.abs(retryAfter - 25 * 86_400)).toBeLessThan(60);

      // Another account, and the same account once the oldest is older than 30 days, may invite.
      expect((await kit.invite(owner, other.id, email)).statusCode).toBe(201);
      const [oldest] = await t.db
        .select()
        .from(invitations)
        .where(eq(invitations.bankAccountId, account.id))
        .orderBy(invitations.createdAt)
        .limit(1);
      await t.db
        .update(invitations)
        .set({ createdAt: new Date(Date.now() - 31 * DAY_MS) })
        .where(eq(invitations.id, oldest?.id as string));
      expect((await kit.invite(owner, account.id, email)).statusCode).toBe(201);
    });

    it("validates the address and answers 404 for another user's or an unknown account", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const account = await kit.account(owner);
      const missing = await t.as(owner).callUnchecked(invitationRoutes.invite, { id: account.id });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ invitee_email: ["This field is required."] });
      expect((await kit.invite(owner, account.id, "not-an-address")).json()).toEqual({
        invitee_email: ["Enter a valid email address."],
      });
      const long = await kit.invite(owner, account.id, `${"a".repeat(150)}@example.org`);
      expect(long.statusCode).toBe(400);
      expect(long.json<Record<string, unknown>>().invitee_email).toBeDefined();

      expect((await kit.invite(stranger, account.id, kit.newAddress())).statusCode).toBe(404);
      expect(
        (await kit.invite(owner, "00000000-0000-4000-8000-000000000000", kit.newAddress())).statusCode,
      ).toBe(404);
      expect((await kit.invite(owner, "not-a-uuid", kit.newAddress())).statusCode).toBe(404);
    });

    it("is refused to API keys (403) and to anonymous callers (401)", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const key = await t.apiKey(owner);
      const response = await kit.invite(key, account.id, kit.newAddress());
      expect(response.statusCode).toBe(403);
      expect(response.json<{ code: string }>().code).toBe("interactive_login_required");
      const anonymous = await t.anonymous.call(invitationRoutes.invite, {
        id: account.id,
        invitee_email: kit.newAddress(),
      });
      expect(anonymous.statusCode).toBe(401);
      expect((await kit.listForAccount(key, account.id)).statusCode).toBe(403);
      expect((await kit.listMine(key)).statusCode).toBe(403);
      const invitation = await kit.invited(owner, account.id, kit.newAddress());
      expect((await kit.cancel(key, account.id, invitation.handle)).statusCode).toBe(403);
      expect((await kit.row(invitation)).status).toBe("pending");
    });
  });

  describe("lists", () => {
    it("lists an account's pending invitations to every owner, and the caller's own across accounts", async () => {
      const owner = await t.user();
      const coOwner = await t.user();
      const [home, savings] = [await kit.account(owner, "Home"), await kit.account(owner, "Savings")];
      const toCoOwner = await kit.invited(owner, home.id, coOwner.email);
      expect((await kit.accept(toCoOwner.secret)).statusCode).toBe(200);

      const first = kit.newAddress();
      const second = kit.newAddress();
      const firstToken = (await kit.invited(owner, home.id, first)).handle;
      const fromCoOwner = (await kit.invited(coOwner, home.id, second)).handle;
      const savingsToken = (await kit.invited(owner, savings.id, first)).handle;
      const cancelled = await kit.invited(owner, savings.id, kit.newAddress());
      await kit.cancel(owner, savings.id, cancelled.handle);

      const list = await kit.listForAccount(coOwner, home.id);
      expect(list.statusCode, list.body).toBe(200);
      const body = list.json();
      expect(body.map((i: { token: string }) => i.token)).toEqual([firstToken, fromCoOwner]);
      expect(body[0]).toEqual({
        id: expect.stringMatching(UUID),
        token: firstToken,
        bank_account_id: home.id,
        bank_account_name: "Home",
        invitee_email: first,
        invited_by: owner.email,
        status: "pending",
        expires_at: expect.stringMatching(ISO_DATE_TIME),
        accepted_at: null,
        declined_at: null,
        cancelled_at: null,
        created_at: expect.stringMatching(ISO_DATE_TIME),
        modified_at: expect.stringMatching(ISO_DATE_TIME),
      });
      expect(body[1]?.invited_by).toBe(coOwner.email);

      const mine = await kit.listMine(owner);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json().map((i: { token: string }) => i.token)).toEqual([firstToken, savingsToken]);
      expect((await kit.listMine(coOwner)).json().map((i: { token: string }) => i.token)).toEqual([
        fromCoOwner,
      ]);
    });

    it("answers 404 for another user's account and leaves expired ones out", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const account = await kit.account(owner);
      const invitation = await kit.invited(owner, account.id, kit.newAddress());
      expect((await kit.listForAccount(stranger, account.id)).statusCode).toBe(404);
      expect((await kit.listMine(stranger)).json()).toEqual([]);
      await kit.age(invitation, 8);
      expect((await kit.listForAccount(owner, account.id)).json()).toEqual([]);
      expect((await kit.listMine(owner)).json()).toEqual([]);
    });
  });

  describe("cancel", () => {
    it("lets only the inviter cancel: 403 for a co-owner, 404 for a stranger or another account", async () => {
      const owner = await t.user();
      const coOwner = await t.user();
      const stranger = await t.user();
      const account = await kit.account(owner);
      const otherAccount = await kit.account(owner);
      expect(
        (await kit.accept((await kit.invited(owner, account.id, coOwner.email)).secret)).statusCode,
      ).toBe(200);
      const invitation = await kit.invited(owner, account.id, kit.newAddress());
      const { handle } = invitation;

      const byCoOwner = await kit.cancel(coOwner, account.id, handle);
      expect(byCoOwner.statusCode).toBe(403);
      expect(byCoOwner.json<{ code: string }>().code).toBe("not_inviter");
      expect((await kit.cancel(stranger, account.id, handle)).statusCode).toBe(404);
      expect((await kit.cancel(owner, otherAccount.id, handle)).statusCode).toBe(404);
      expect((await kit.cancel(owner, account.id, "no-such-token")).statusCode).toBe(404);
      expect((await kit.row(invitation)).status).toBe("pending");

      const cancelled = await kit.cancel(owner, account.id, handle);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.body).toBe("");
      const row = await kit.row(invitation);
      expect(row.status).toBe("cancelled");
      expect(row.cancelledAt).toBeInstanceOf(Date);
      expect((await kit.listForAccount(owner, account.id)).json()).toEqual([]);

      const twice = await kit.cancel(owner, account.id, handle);
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toEqual({ non_field_errors: ["This invitation was cancelled."] });
      const accept = await kit.accept(invitation.secret);
      expect(accept.statusCode).toBe(400);
      // A new invitation to the address may follow a cancelled one.
      expect((await kit.invite(owner, account.id, row.inviteeEmail)).statusCode).toBe(201);
    });
  });

  describe("expiry", () => {
    it("treats a pending invitation past its expiry as expired on use, and writes it down", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const email = kit.newAddress();
      const invitation = await kit.invited(owner, account.id, email);
      await kit.age(invitation, 7);

      const read = await kit.get(invitation.secret);
      expect(read.statusCode).toBe(200);
      expect(read.json().status).toBe("expired");
      expect((await kit.row(invitation)).status).toBe("expired");
      const accept = await kit.accept(invitation.secret);
      expect(accept.statusCode).toBe(400);
      expect(accept.json()).toEqual({ non_field_errors: ["This invitation has expired."] });
      expect((await kit.decline(invitation.secret)).statusCode).toBe(400);
      expect((await kit.cancel(owner, account.id, invitation.handle)).statusCode).toBe(400);

      // Accepting one not yet marked commits the expiry even though it answers 400.
      const second = await kit.invited(owner, account.id, email);
      await kit.age(second, 8);
      expect((await kit.row(second)).status).toBe("pending");
      expect((await kit.accept(second.secret)).statusCode).toBe(400);
      expect((await kit.row(second)).status).toBe("expired");

      // An expired one no longer blocks a new invitation to the address.
      const third = await kit.invited(owner, account.id, email);
      await kit.age(third, 10);
      expect((await kit.invite(owner, account.id, email)).statusCode).toBe(201);
      expect((await kit.row(third)).status).toBe("expired");
    });

    it("is written by the expire-invitations job, which leaves others alone", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const due = await kit.invited(owner, account.id, kit.newAddress());
      const fresh = await kit.invited(owner, account.id, kit.newAddress());
      const accepted = await kit.invited(owner, account.id, kit.newAddress());
      expect((await kit.accept(accepted.secret)).statusCode).toBe(200);
      await kit.age(due, 7);
      await kit.age(accepted, 30);

      const job = jobs.find((candidate) => candidate.name === "expire-invitations");
      expect(job?.everyMs).toBe(3_600_000);
      const result = (await job?.run(internalContext(t.db, "scheduler"))) as { expired: number };
      expect(result.expired).toBeGreaterThanOrEqual(1);
      expect((await kit.row(due)).status).toBe("expired");
      expect((await kit.row(fresh)).status).toBe("pending");
      expect((await kit.row(accepted)).status).toBe("accepted");
      expect(await job?.run(internalContext(t.db, "scheduler"))).toEqual({ expired: 0 });
    });
  });
});
