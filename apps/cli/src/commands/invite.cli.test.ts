import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { useCliServer } from "../../test/testing/cli-server";

// Each test runs the real CLI several times: one to three seconds each, far more on a busy machine.
const SLOW = { timeout: 600_000 };

interface InvitationJson {
  token: string;
  invitee_email: string;
  bank_account_id: string;
  bank_account_name: string;
  status: string;
}

describe.each(testEngines())("allot invite / invitations against a running API (%s)", (engine) => {
  const server = useCliServer(engine);

  it(
    "invites to an account by name or the only one, lists the account's and the sent invitations, cancels by email",
    SLOW,
    async () => {
      const bank = await server.bank("Invite Bank");
      const { allot, client, user } = await server.loggedInUser();
      const household = await client.bankAccounts.create({ name: "Household", bank: bank.id });
      const stamp = Date.now();
      const sam = `sam-${stamp}@example.com`;
      const bob = `bob-${stamp}@example.com`;

      // With one account, --account is not needed.
      const first = await allot(["invite", sam]);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(new RegExp(`^invitee +${sam}$`, "m"));
      expect(first.stdout).toMatch(/^status +pending$/m);
      expect(first.stderr).toBe(
        `Invited ${sam}: they get an email with a link to accept. Cancel with \`allot invitations cancel ${sam}\`.\n`,
      );
      await client.bankAccounts.create({ name: "Holiday fund", bank: bank.id });
      const second = await allot(["invite", bob, "--account", "household", "--json"]);
      expect(second.stderr).toBe("");
      expect(second.json<InvitationJson>()).toMatchObject({
        invitee_email: bob,
        bank_account_id: household.id,
        status: "pending",
        token: expect.any(String),
      });

      const listed = await allot(["invitations", "--account", "Household"]);
      expect(listed.code).toBe(0);
      const rows = listed.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.split(/ {2,}/).slice(0, 4));
      expect(rows[0]).toEqual(["INVITEE", "ACCOUNT", "INVITED BY", "STATUS"]);
      expect(rows.slice(1).sort()).toEqual(
        [
          [bob, "Household", user.email, "pending"],
          [sam, "Household", user.email, "pending"],
        ].sort(),
      );

      const sent = await allot(["invitations", "sent", "--json"]);
      expect(
        sent
          .json<InvitationJson[]>()
          .map((i) => i.invitee_email)
          .sort(),
      ).toEqual([bob, sam].sort());

      const cancelled = await allot(["invitations", "cancel", sam.toUpperCase(), "--json"]);
      expect(cancelled.stderr).toBe("");
      expect(cancelled.json()).toMatchObject({
        invitee_email: sam,
        bank_account_id: household.id,
        cancelled: true,
      });
      const byToken = await allot(["invitations", "cancel", second.json<InvitationJson>().token]);
      expect(byToken.stderr).toBe("");
      expect(byToken.stdout).toBe(`Cancelled the invitation of ${bob} to 'Household'.\n`);

      const none = await allot(["invitations", "--account", household.id]);
      expect(none.stdout).toBe("");
      expect(none.stderr).toBe("No pending invitations: invite someone with `allot invite EMAIL`.\n");
      const unknown = await allot(["invitations", "cancel", sam]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe(
        `error: None of your pending invitations matches '${sam}': see \`allot invitations sent\`.\n`,
      );
    },
  );

  it("needs --account among several accounts, a valid address and an interactive login", SLOW, async () => {
    const bank = await server.bank("Invite Bank");
    const person = await server.loggedInUser();
    await person.client.bankAccounts.create({ name: "A", bank: bank.id });
    await person.client.bankAccounts.create({ name: "B", bank: bank.id });
    const which = await person.allot(["invite", "kim@example.com"]);
    expect(which.code).toBe(2);
    expect(which.stderr).toBe(
      "error: Pass --account NAME (your accounts: A, B), or set a default bank account.\n",
    );
    const invalid = await person.allot(["invite", "not-an-address", "--account", "A", "--json"]);
    expect(invalid.code).toBe(1);
    expect(invalid.errorJson()).toEqual({ invitee_email: ["Enter a valid email address."] });

    const keyUser = await server.apiKeyUser();
    await keyUser.client.bankAccounts.create({ name: "Mine", bank: bank.id });
    const byKey = await keyUser.allot(["invitations", "sent"]);
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toContain("hint: API keys cannot do this. Run `allot login");
  });
});
