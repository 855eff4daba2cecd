import { createBankAccountRoute } from "@allot/contract/bank-accounts/routes";
import { requestPasswordResetRoute } from "@allot/contract/credentials/routes";
import { inviteRoute, listAccountInvitationsRoute } from "@allot/contract/invitations/routes";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { describe, expect, it } from "vitest";
import { type TestUser, testConfig, useTestApp } from "../../test/testing/test-app";
import { testThrottleSetups } from "../../test/testing/test-throttle-stores";
import { expectThrottled } from "./throttle-test-kit";

const base = testConfig().throttle;
// Hourly: a minute boundary falling mid-test cannot reset it.
const tiny = parseThrottleRates("3/hour");

let addresses = 0;
const newAddress = (label: string) => `${label}${++addresses}-${Date.now()}@example.org`;

type Harness = ReturnType<typeof useTestApp>;

async function newAccount(t: Harness, owner: TestUser): Promise<string> {
  const bank = await createBank(internalContext(t.db, "cli"), { name: "Shared Bank", currency: "USD" });
  const response = await t.as(owner).call(createBankAccountRoute, {
    name: "Household",
    bank: bank.id,
    posted_balance: "0.00",
    available_balance: "0.00",
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const invite = (t: Harness, inviter: TestUser, accountId: string, email: string) =>
  t.as(inviter).call(inviteRoute, { id: accountId, invitee_email: email });

const requestReset = (t: Harness, email: string, remoteAddress = "127.0.0.1") =>
  t.anonymous.call(requestPasswordResetRoute, { email }, { remoteAddress });

describe.each(testThrottleSetups())("limits on email-sending requests (%s, %s store)", (engine, store) => {
  describe("at small limits", () => {
    const t = useTestApp(
      engine,
      { throttle: { ...base, invitationsPerUser: tiny, passwordResetEmailPerAddress: tiny } },
      { throttleStore: store },
    );

    // Decision 0025: every invitation request counts, a refused one (409) included.
    it("limits the invitations a user sends, refused ones included", async () => {
      const inviter = await t.user();
      const accountId = await newAccount(t, inviter);
      const first = newAddress("invitee");
      expect((await invite(t, inviter, accountId, first)).statusCode).toBe(201);
      expect((await invite(t, inviter, accountId, first)).statusCode).toBe(409);
      expect((await invite(t, inviter, accountId, newAddress("invitee"))).statusCode).toBe(201);
      expectThrottled(await invite(t, inviter, accountId, newAddress("invitee")));

      // Per user: another inviter is not held back, nor are the first one's other requests.
      const other = await t.user();
      expect((await invite(t, other, await newAccount(t, other), newAddress("invitee"))).statusCode).toBe(
        201,
      );
      const list = await t.as(inviter).call(listAccountInvitationsRoute, { id: accountId });
      expect(list.statusCode).toBe(200);
    });

    it("limits reset requests per address, known or not, alike", async () => {
      const known = newAddress("known");
      await createUser(internalContext(t.db, "cli"), {
        email: known,
        password: "correct horse battery staple",
      });
      const unknown = newAddress("unknown");
      for (const address of [known, unknown]) {
        // From three different networks, spelled three ways: one address.
        expect((await requestReset(t, address, "192.0.2.1")).statusCode).toBe(204);
        expect((await requestReset(t, address.toUpperCase(), "192.0.2.2")).statusCode).toBe(204);
        expect((await requestReset(t, ` ${address} `, "2001:db8::1")).statusCode).toBe(204);
        expectThrottled(await requestReset(t, address, "192.0.2.3"));
      }
      expect((await requestReset(t, newAddress("other"), "192.0.2.1")).statusCode).toBe(204);
    });
  });

  describe("at the default limits", () => {
    const t = useTestApp(
      engine,
      { throttle: { ...base, invitationsPerUser: undefined, passwordResetEmailPerAddress: undefined } },
      { throttleStore: store },
    );

    it("allows a user 20 invitations a day", async () => {
      const inviter = await t.user();
      const accountId = await newAccount(t, inviter);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i += 1)
        statuses.push((await invite(t, inviter, accountId, newAddress("daily"))).statusCode);
      expect(statuses).toEqual(Array(20).fill(201));
      expectThrottled(await invite(t, inviter, accountId, newAddress("daily")), 86_400);
    });

    it("allows 5 reset requests an hour for one address", async () => {
      const address = newAddress("hourly");
      for (let i = 0; i < 5; i += 1) expect((await requestReset(t, address)).statusCode).toBe(204);
      expectThrottled(await requestReset(t, address));
    });
  });
});
