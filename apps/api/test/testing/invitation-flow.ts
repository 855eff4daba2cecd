import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import type { TestUser, useTestApp } from "./test-app";
import type { useTestMailbox } from "./test-mailbox";

let counter = 0;

/**
 * Invitations made the way a user makes them: an owner's account, `POST …/invite/` over HTTP, and
 * the link read from the email the invitee receives (its path: tests choose the origin). `secret` is
 * the link's credential; `handle` is the `token` the owner's list shows (it is not the secret).
 */
export function invitationFlow(t: ReturnType<typeof useTestApp>, mailbox: ReturnType<typeof useTestMailbox>) {
  return {
    async invite(options: { accountName?: string; bankName?: string; invitee?: TestUser } = {}) {
      counter += 1;
      const owner = await t.user({ name: "Olive Owner" });
      const bank = await createBank(internalContext(t.db, "cli"), {
        name: options.bankName ?? "Link Bank",
        currency: "EUR",
      });
      const created = await t
        .as(owner)
        .call(bankAccountRoutes.create, { name: options.accountName ?? "Household", bank: bank.id });
      if (created.statusCode !== 201) throw new Error(`account: ${created.statusCode} ${created.body}`);
      const inviteeEmail = options.invitee?.email ?? `invitee${counter}-${Date.now()}@example.com`;
      const invited = await t
        .as(owner)
        .call(invitationRoutes.invite, { id: created.json().id, invitee_email: inviteeEmail });
      if (invited.statusCode !== 201) throw new Error(`invite: ${invited.statusCode} ${invited.body}`);
      const link = mailbox.linkIn(await mailbox.latestTo(inviteeEmail), "/links/invitations/");
      const path = new URL(link).pathname;
      const secret = decodeURIComponent(path.split("/").pop() ?? "");
      const accountId = created.json().id;
      const listed = await t.as(owner).call(invitationRoutes.listForAccount, { id: accountId });
      const handle = listed.json()[0]?.token;
      if (!handle) throw new Error(`list: ${listed.statusCode} ${listed.body}`);
      return { owner, inviteeEmail, accountId, path, secret, handle };
    },
  };
}
