import { randomBytes } from "node:crypto";
import { createBank } from "@allot/domain/banks/create-bank";
import { internalContext } from "@allot/domain/shared/use-case-context";
import type { TestUser, useTestApp } from "../testing/test-app";
import type { useTestMailbox } from "../testing/test-mailbox";
import { injectSender, type Reply, type Send } from "./ledger-client";

type Harness = ReturnType<typeof useTestApp>;
type Mailbox = ReturnType<typeof useTestMailbox>;
// biome-ignore lint/suspicious/noExplicitAny: views are the API's JSON, read field by field.
type View = Record<string, any>;

/**
 * One owner with one of everything, made over HTTP the way a client makes it, so the matrix aims
 * at real ids: a 404 there means "not yours", never "no such thing" or a malformed id.
 */
export interface OwnerWorld {
  owner: TestUser;
  /** The owner as `GET /users/me/` shows them, their main account as default. */
  ownerUser: View;
  bank: { id: string };
  account: View;
  /** Holiday: a funded goal with a split allocation, a transfer and a funding occurrence. */
  budget: View;
  /** A budget with nothing in it: deleting it would be valid for the owner. */
  spareBudget: View;
  /** The owner's own category, referenced by nothing: deleting it would be valid for the owner. */
  category: View;
  /** Posted, split between Holiday and Unallocated. */
  transaction: View;
  /** Pending: resolving it would be valid for the owner. */
  pendingTransaction: View;
  allocationId: string;
  transferId: string;
  occurrenceId: string;
  /**
   * A pending invitation the owner sent on the account: `token` is the handle the owner's list
   * shows, `secret` the invitee's credential from the emailed link.
   */
  invitation: { id: string; token: string; secret: string };
  /** A live API key of the owner's. */
  apiKeyUuid: string;
  /** Ids, names and tokens of the owner's that no one else may ever be shown. */
  secrets: string[];
  /** The emailed secret of a pending invitation of its own for each call, on a second account. */
  freshInvitationSecret(): Promise<string>;
  /** A refresh cookie of a new login of the owner's, for each call. */
  freshRefreshCookie(): Promise<string>;
  asOwner: Send;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const created = (what: string, reply: Reply, status = 201): View => {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
};

export async function buildOwnerWorld(t: Harness, mailbox: Mailbox): Promise<OwnerWorld> {
  const mark = randomBytes(4).toString("hex");
  const ownerName = `Olive Owner ${mark}`;
  const owner = await t.user({ name: ownerName });
  const asOwner = injectSender(t.app, owner.bearer);
  const bank = await createBank(internalContext(t.db, "cli"), {
    name: `Matrix Bank ${mark}`,
    currency: "EUR",
  });

  const account = created(
    "account",
    await asOwner("POST", "/bank-accounts/", {
      name: `Owner secret account ${mark}`,
      bank: bank.id,
      available_balance: "100.00",
      posted_balance: "100.00",
      account_number: `ACCT-${mark}`,
    }),
  );
  const ownerUser = created(
    "default account",
    await asOwner("PATCH", "/users/me/", { default_bank_account: account.id }),
    200,
  );
  const budget = created(
    "budget",
    await asOwner("POST", "/budgets/", {
      bank_account: account.id,
      name: `Holiday ${mark}`,
      budget_type: "G",
      funding_type: "F",
      target_balance: "500.00",
      funding_amount: "10.00",
      // Daily: a run today makes one occurrence (events before the budget existed are not due).
      funding_schedule: `DTSTART:${daysAgo(3).replaceAll("-", "")}\nRRULE:FREQ=DAILY`,
    }),
  );
  const spareBudget = created(
    "spare budget",
    await asOwner("POST", "/budgets/", {
      bank_account: account.id,
      name: `Spare ${mark}`,
      budget_type: "G",
      funding_type: "F",
      target_balance: "50.00",
      funding_amount: "5.00",
    }),
  );
  const category = created(
    "category",
    await asOwner("POST", "/transaction-categories/", {
      group: `Owner group ${mark}`,
      name: `Secret ${mark}`,
    }),
  );
  const transaction = created(
    "transaction",
    await asOwner("POST", "/transactions/", {
      bank_account: account.id,
      amount: "-20.00",
      transaction_date: "2026-03-01T10:00:00Z",
      transaction_type: "ach",
      raw_description: `Owner shop ${mark}`,
      memo: `Owner memo ${mark}`,
    }),
  );
  const pendingTransaction = created(
    "pending transaction",
    await asOwner("POST", "/transactions/", {
      bank_account: account.id,
      amount: "-7.00",
      transaction_date: "2026-03-03T10:00:00Z",
      transaction_type: "signature_purchase",
      raw_description: `Owner pending ${mark}`,
      pending: true,
    }),
  );
  const split = created(
    "split",
    await asOwner("POST", `/transactions/${transaction.id}/splits/`, { splits: { [budget.id]: "5.00" } }),
    200,
  );
  const transfer = created(
    "transfer",
    await asOwner("POST", "/internal-transactions/", {
      bank_account: account.id,
      amount: "10.00",
      src_budget: account.unallocated_budget,
      dst_budget: budget.id,
    }),
  );
  created("run-funding", await asOwner("POST", `/bank-accounts/${account.id}/run-funding/`, {}), 200);
  const occurrences = created(
    "occurrences",
    await asOwner("GET", `/funding-occurrences/?budget=${budget.id}`),
    200,
  );
  const occurrenceId = occurrences.results[0]?.id;
  if (!occurrenceId) throw new Error(`no occurrence: ${JSON.stringify(occurrences)}`);

  const invite = async (accountId: string) => {
    const email = `invitee-${randomBytes(6).toString("hex")}@example.com`;
    created("invite", await asOwner("POST", `/bank-accounts/${accountId}/invite/`, { invitee_email: email }));
    const list = created(
      "invitations",
      await asOwner("GET", `/bank-accounts/${accountId}/invitations/`),
      200,
    );
    const row = (list as unknown as View[]).find((i) => i.invitee_email === email);
    if (!row) throw new Error(`invitation to ${email} not listed`);
    const link = mailbox.linkIn(await mailbox.latestTo(email), "/links/invitations/");
    const secret = decodeURIComponent(new URL(link).pathname.split("/").pop() ?? "");
    return { id: row.id as string, token: row.token as string, secret };
  };
  const invitation = await invite(account.id);
  const invitationsAccount = created(
    "invitations account",
    await asOwner("POST", "/bank-accounts/", { name: `Owner shared account ${mark}`, bank: bank.id }),
  );

  await t.apiKey(owner, `Owner key ${mark}`);
  const keys = created("api keys", await asOwner("GET", "/users/me/api-keys/"), 200);
  const key = keys.results.find((k: View) => k.name === `Owner key ${mark}`);

  return {
    owner,
    ownerUser,
    bank,
    account,
    budget,
    spareBudget,
    category,
    transaction,
    pendingTransaction,
    allocationId: split.find((a: View) => a.budget === budget.id).id,
    transferId: transfer.id,
    occurrenceId,
    invitation,
    apiKeyUuid: key.uuid,
    secrets: [
      account.id,
      account.unallocated_budget,
      account.name,
      account.account_number,
      invitationsAccount.id,
      budget.id,
      budget.name,
      spareBudget.id,
      spareBudget.name,
      category.id,
      category.group,
      transaction.id,
      transaction.raw_description,
      transaction.memo,
      pendingTransaction.id,
      pendingTransaction.raw_description,
      ...split.map((a: View) => a.id),
      transfer.id,
      occurrenceId,
      invitation.id,
      invitation.token,
      invitation.secret,
      key.uuid,
      key.prefix,
      ownerName,
      owner.email,
      owner.username,
    ].filter((secret): secret is string => typeof secret === "string" && secret.length > 0),
    freshInvitationSecret: async () => (await invite(invitationsAccount.id)).secret,
    async freshRefreshCookie() {
      const login = await t.inject({
        method: "POST",
        url: "/api/token/",
        payload: { email: owner.email, password: owner.password },
      });
      const cookie = login.cookies.find((c) => c.name === "refresh_token");
      if (!cookie) throw new Error(`login: ${login.statusCode} ${login.body}`);
      return cookie.value;
    },
    asOwner,
  };
}

/**
 * Everything the owner can read of their own main account and user, as text: after the matrix it
 * must be exactly as before (the account fingerprint adds the ledger's internals).
 */
export async function ownerView(world: OwnerWorld): Promise<string> {
  const id = world.account.id;
  const paths = [
    "/users/me/",
    `/bank-accounts/${id}/`,
    `/budgets/?bank_account=${id}&page_size=500`,
    `/transactions/?bank_account=${id}&page_size=500`,
    `/allocations/?bank_account=${id}&page_size=500`,
    `/internal-transactions/?bank_account=${id}&page_size=500`,
    `/funding-occurrences/?bank_account=${id}&page_size=500`,
    "/transaction-categories/?scope=mine&page_size=500",
    `/bank-accounts/${id}/invitations/`,
    "/users/me/api-keys/?page_size=500",
    "/channel-preferences/",
    "/notification-preferences/",
  ];
  const views: Record<string, unknown> = {};
  for (const path of paths) {
    const reply = await world.asOwner("GET", path);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    views[path] = reply.body;
  }
  return JSON.stringify(views, null, 1);
}
