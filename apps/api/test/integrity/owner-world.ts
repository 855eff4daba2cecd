import { randomBytes } from "node:crypto";
import { allocationRoutes } from "@allot/contract/allocations/routes";
import { apiKeyRoutes } from "@allot/contract/api-keys/routes";
import { authRoutes } from "@allot/contract/auth/routes";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { fundingRoutes } from "@allot/contract/funding/routes";
import { fundingOccurrenceRoutes } from "@allot/contract/funding-occurrences/routes";
import type { RouteSpec } from "@allot/contract/http/route";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import { preferenceRoutes } from "@allot/contract/preferences/routes";
import { transactionCategoryRoutes } from "@allot/contract/transaction-categories/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { userRoutes } from "@allot/contract/users/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { samplePdf, samplePng } from "@allot/domain/testing/sample-files";
import { aBank, aBudget, aCategory, anAccount, aTransaction } from "../testing/fixtures";
import { multipartForm } from "../testing/multipart-form";
import type { TestUser, useTestApp } from "../testing/test-app";
import type { RouteCaller, RouteResponse } from "../testing/test-client";
import type { useTestMailbox } from "../testing/test-mailbox";

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
  /** A webhook of the owner's, and the delivery of its test event. */
  webhook: { id: string; deliveryId: string };
  /** Ids, names and tokens of the owner's that no one else may ever be shown. */
  secrets: string[];
  /** The emailed secret of a pending invitation of its own for each call, on a second account. */
  freshInvitationSecret(): Promise<string>;
  /** A refresh cookie of a new login of the owner's, for each call. */
  freshRefreshCookie(): Promise<string>;
  asOwner: RouteCaller;
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const created = <R extends RouteSpec>(what: string, response: RouteResponse<R>, status = 201) => {
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
  return response.json();
};

export async function buildOwnerWorld(t: Harness, mailbox: Mailbox): Promise<OwnerWorld> {
  const mark = randomBytes(4).toString("hex");
  const ownerName = `Olive Owner ${mark}`;
  const owner = await t.user({ name: ownerName });
  const as = t.as(owner);
  const bank = await aBank(t, { name: `Matrix Bank ${mark}`, currency: "EUR" });

  const account = await anAccount(t, owner, {
    name: `Owner secret account ${mark}`,
    bank: bank.id,
    balance: "100.00",
    account_number: `ACCT-${mark}`,
  });
  const ownerUser = created(
    "default account",
    await as.call(userRoutes.updateMe, { default_bank_account: account.id }),
    200,
  );
  const budget = await aBudget(t, owner, account, {
    name: `Holiday ${mark}`,
    target_balance: "500.00",
    funding_amount: "10.00",
    // Daily: a run today makes one occurrence (events before the budget existed are not due).
    funding_schedule: `DTSTART:${daysAgo(3).replaceAll("-", "")}\nRRULE:FREQ=DAILY`,
  });
  const spareBudget = await aBudget(t, owner, account, {
    name: `Spare ${mark}`,
    target_balance: "50.00",
    funding_amount: "5.00",
  });
  const category = await aCategory(t, owner, { group: `Owner group ${mark}`, name: `Secret ${mark}` });
  const transaction = await aTransaction(t, owner, account, {
    amount: "-20.00",
    transaction_date: "2026-03-01T10:00:00Z",
    transaction_type: "ach",
    raw_description: `Owner shop ${mark}`,
    memo: `Owner memo ${mark}`,
  });
  // Its receipt: the download routes must show a non-owner nothing of a file that is there.
  const receipt = multipartForm({
    image: { filename: `receipt-${mark}.png`, bytes: samplePng(), type: "image/png" },
    document: { filename: `receipt-${mark}.pdf`, bytes: samplePdf(), type: "application/pdf" },
  });
  const attached = await t.inject({
    method: "PATCH",
    url: `/api/v1/transactions/${transaction.id}/`,
    headers: { ...receipt.headers, authorization: owner.bearer },
    payload: receipt.payload,
  });
  if (attached.statusCode !== 200) throw new Error(`receipt: ${attached.statusCode} ${attached.body}`);
  const pendingTransaction = await aTransaction(t, owner, account, {
    amount: "-7.00",
    transaction_date: "2026-03-03T10:00:00Z",
    raw_description: `Owner pending ${mark}`,
    pending: true,
  });
  const split = created(
    "split",
    await as.call(transactionRoutes.split, { id: transaction.id, splits: { [budget.id]: "5.00" } }),
    200,
  );
  const transfer = created(
    "transfer",
    await as.call(internalTransactionRoutes.create, {
      bank_account: account.id,
      amount: "10.00",
      src_budget: account.unallocated_budget,
      dst_budget: budget.id,
    }),
  );
  created("run-funding", await as.call(fundingRoutes.run, { id: account.id }), 200);
  const occurrences = created(
    "occurrences",
    await as.call(fundingOccurrenceRoutes.list, { budget: budget.id }),
    200,
  );
  const occurrenceId = occurrences.results[0]?.id;
  if (!occurrenceId) throw new Error(`no occurrence: ${JSON.stringify(occurrences)}`);

  const invite = async (accountId: string) => {
    const email = `invitee-${randomBytes(6).toString("hex")}@example.com`;
    const invited = await as.call(invitationRoutes.invite, { id: accountId, invitee_email: email });
    if (invited.statusCode !== 201) throw new Error(`invite: ${invited.statusCode} ${invited.body}`);
    const list = created(
      "invitations",
      await as.call(invitationRoutes.listForAccount, { id: accountId }),
      200,
    );
    const row = list.find((i) => i.invitee_email === email);
    if (!row) throw new Error(`invitation to ${email} not listed`);
    const link = mailbox.linkIn(await mailbox.latestTo(email), "/links/invitations/");
    const secret = decodeURIComponent(new URL(link).pathname.split("/").pop() ?? "");
    return { id: row.id, token: row.token, secret };
  };
  const invitation = await invite(account.id);
  const invitationsAccount = await anAccount(t, owner, {
    name: `Owner shared account ${mark}`,
    bank: bank.id,
  });

  await t.apiKey(owner, `Owner key ${mark}`);
  const keys = created("api keys", await as.call(apiKeyRoutes.list), 200);
  const key = keys.results.find((k) => k.name === `Owner key ${mark}`);
  if (!key) throw new Error(`api key Owner key ${mark} not listed`);
  const webhook = created(
    "webhook",
    await as.call(webhookRoutes.create, {
      url: `https://hooks.example.com/owner-${mark}`,
      event_types: ["*"],
      bank_account: account.id,
      description: `Owner hook ${mark}`,
    }),
    201,
  );
  const delivery = created("webhook test", await as.call(webhookRoutes.test, { id: webhook.id }), 202);
  const allocation = split.find((a) => a.budget === budget.id);
  if (!allocation) throw new Error(`no allocation to ${budget.id}: ${JSON.stringify(split)}`);

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
    allocationId: allocation.id,
    transferId: transfer.id,
    occurrenceId,
    invitation,
    apiKeyUuid: key.uuid,
    webhook: { id: webhook.id, deliveryId: delivery.id },
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
      ...split.map((a) => a.id),
      transfer.id,
      occurrenceId,
      invitation.id,
      invitation.token,
      invitation.secret,
      key.uuid,
      key.prefix,
      webhook.id,
      webhook.url,
      webhook.secret,
      webhook.description,
      delivery.id,
      delivery.event_id,
      ownerName,
      owner.email,
      owner.username,
    ].filter((secret): secret is string => typeof secret === "string" && secret.length > 0),
    freshInvitationSecret: async () => (await invite(invitationsAccount.id)).secret,
    async freshRefreshCookie() {
      const login = await t.anonymous.call(authRoutes.login, {
        email: owner.email,
        password: owner.password,
      });
      const cookie = login.cookies.find((c) => c.name === "refresh_token");
      if (!cookie) throw new Error(`login: ${login.statusCode} ${login.body}`);
      return cookie.value;
    },
    asOwner: as,
  };
}

/**
 * Everything the owner can read of their own main account and user, as text: after the matrix it
 * must be exactly as before (the account fingerprint adds the ledger's internals).
 */
export async function ownerView(world: OwnerWorld): Promise<string> {
  const id = world.account.id;
  const as = world.asOwner;
  const all = { bank_account: id, page_size: 500 };
  const views = {
    me: created("me", await as.call(userRoutes.getMe), 200),
    account: created("account", await as.call(bankAccountRoutes.get, { id }), 200),
    budgets: created("budgets", await as.call(budgetRoutes.list, all), 200),
    transactions: created("transactions", await as.call(transactionRoutes.list, all), 200),
    allocations: created("allocations", await as.call(allocationRoutes.list, all), 200),
    transfers: created("transfers", await as.call(internalTransactionRoutes.list, all), 200),
    occurrences: created("occurrences", await as.call(fundingOccurrenceRoutes.list, all), 200),
    categories: created(
      "categories",
      await as.call(transactionCategoryRoutes.list, { scope: "mine", page_size: 500 }),
      200,
    ),
    invitations: created("invitations", await as.call(invitationRoutes.listForAccount, { id }), 200),
    apiKeys: created("api keys", await as.call(apiKeyRoutes.list, { page_size: 500 }), 200),
    channels: created("channels", await as.call(preferenceRoutes.listChannels), 200),
    notifications: created("notifications", await as.call(preferenceRoutes.listNotifications), 200),
  };
  return JSON.stringify(views, null, 1);
}
