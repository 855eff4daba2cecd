import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { parseThrottleRates } from "@allot/domain/throttle/throttle-rate";
import { createUser } from "@allot/domain/users/create-user";
import { describe, expect, it } from "vitest";
import { type TestUser, testConfig, useTestApp } from "../../test/testing/test-app";
import { testThrottleSetups } from "../../test/testing/test-throttle-stores";
import { expectThrottled } from "../../test/testing/throttle-test-kit";

const base = testConfig().throttle;
// Hourly: a minute boundary falling mid-test cannot reset it.
const tiny = parseThrottleRates("3/hour");

let addresses = 0;
const newAddress = (label: string) => `${label}${++addresses}-${Date.now()}@example.org`;

type Harness = ReturnType<typeof useTestApp>;

async function newAccount(t: Harness, owner: TestUser): Promise<string> {
  const bank = await createBank(internalContext(t.db, "cli"), { name: "Shared Bank", currency: "USD" });
  const response = await t.as(owner).call(bankAccountRoutes.create, {
    name: "Household",
    bank: bank.id,
    posted_balance: "0.00",
    available_balance: "0.00",
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const invite = (t: Harness, inviter: TestUser, accountId: string, email: string) =>
  t.as(inviter).call(invitationRoutes.invite, { id: accountId, invitee_email: email });

const requestReset = (t: Harness, email: string, remoteAddress = "127.0.0.1") =>
  t.anonymous.call(credentialRoutes.requestPasswordReset, { email }, { remoteAddress });

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
      const list = await t.as(inviter).call(invitationRoutes.listForAccount, { id: accountId });
      expect(list.statusCode).toBe(200);
    });

    it("limits reset requests per address and network, known or not, alike", async () => {
      const known = newAddress("known");
      await createUser(internalContext(t.db, "cli"), {
        email: known,
        password: "correct horse battery staple",
      });
      const unknown = newAddress("unknown");
      for (const address of [known, unknown]) {
        // From one network, spelled three ways: one address.
        expect((await requestReset(t, address, "192.0.2.1")).statusCode).toBe(204);
        expect((await requestReset(t, address.toUpperCase(), "192.0.2.1")).statusCode).toBe(204);
        expect((await requestReset(t, ` ${address} `, "192.0.2.1")).statusCode).toBe(204);
        expectThrottled(await requestReset(t, address, "192.0.2.1"));
        // Another network has its own share; the addresses of one IPv6 /64 are one network.
        for (const ip of ["2001:db8::1", "2001:db8::2", "2001:db8::3"])
          expect((await requestReset(t, address, ip)).statusCode).toBe(204);
        expectThrottled(await requestReset(t, address, "2001:db8::4"));
      }
      expect((await requestReset(t, newAddress("other"), "192.0.2.1")).statusCode).toBe(204);
    });

    it("leaves the owner their own network's share when a stranger spends theirs", async () => {
      const owner = newAddress("victim");
      await createUser(internalContext(t.db, "cli"), {
        email: owner,
        password: "correct horse battery staple",
      });
      for (let i = 0; i < 3; i += 1)
        expect((await requestReset(t, owner, "198.51.100.7")).statusCode).toBe(204);
      // The stranger keeps trying: refused, and the refusals spend nothing of the address's ceiling.
      for (let i = 0; i < 6; i += 1) expectThrottled(await requestReset(t, owner, "198.51.100.7"));
      expect((await requestReset(t, owner, "203.0.113.5")).statusCode).toBe(204);
    });
  });

  describe("with a per-address ceiling across networks", () => {
    const t = useTestApp(
      engine,
      {
        throttle: {
          ...base,
          passwordResetEmailPerAddress: parseThrottleRates("2/hour"),
          passwordResetEmailCeiling: parseThrottleRates("5/hour"),
        },
      },
      { throttleStore: store },
    );

    it("stops an address's emails at the ceiling, whatever network asks", async () => {
      const address = newAddress("ceiling");
      const statuses = async (network: string, times: number) => {
        const seen: number[] = [];
        for (let i = 0; i < times; i += 1) seen.push((await requestReset(t, address, network)).statusCode);
        return seen;
      };
      // The first network's refused requests spend nothing of the ceiling.
      expect(await statuses("192.0.2.10", 5)).toEqual([204, 204, 429, 429, 429]);
      expect(await statuses("192.0.2.11", 2)).toEqual([204, 204]);
      // The ceiling's fifth, then the ceiling refuses.
      expect(await statuses("2001:db8:5::1", 2)).toEqual([204, 429]);
      const refused = await requestReset(t, address, "192.0.2.12");
      expectThrottled(refused);
      expect(refused.headers.ratelimit).toMatch(/"reset-email-address-hour";r=0;/);
      // Another address is not held back, from the same networks.
      expect((await requestReset(t, newAddress("ceiling"), "192.0.2.10")).statusCode).toBe(204);
    });
  });

  describe("at the default limits", () => {
    const t = useTestApp(
      engine,
      {
        throttle: {
          ...base,
          invitationsPerUser: undefined,
          passwordResetEmailPerAddress: undefined,
          passwordResetEmailCeiling: undefined,
        },
      },
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

    it("allows 5 reset requests an hour for one address from one network, 20 from all", async () => {
      const address = newAddress("hourly");
      for (let i = 0; i < 5; i += 1) expect((await requestReset(t, address)).statusCode).toBe(204);
      expectThrottled(await requestReset(t, address));
      for (let network = 1; network <= 3; network += 1)
        for (let i = 0; i < 5; i += 1)
          expect((await requestReset(t, address, `198.18.0.${network}`)).statusCode).toBe(204);
      expectThrottled(await requestReset(t, address, "198.18.0.4"));
    });
  });
});
