import { isUuid } from "@allot/contract/http/fields";
import type { RouteInput } from "@allot/contract/http/route";
import type { webhookRoutes } from "@allot/contract/webhooks/routes";
import { bankAccountOwners } from "@allot/db/schema/bank-accounts";
import { users } from "@allot/db/schema/users";
import { webhooks } from "@allot/db/schema/webhooks";
import { and, count, eq } from "drizzle-orm";
import { unknownAccount } from "../account-access/find-owned-account";
import { ValidationFailed } from "../shared/errors";
import type { UseCaseContext } from "../shared/use-case-context";
import { emailWebhookCreated } from "./webhook-created-email";
import { holdLiveCredential, webhookCredentialOf } from "./webhook-credential";
import { generateWebhookSecret } from "./webhook-secret";
import { checkWebhookUrl } from "./webhook-url";
import { toWebhookView } from "./webhook-view";

/** Every event is copied once per matching webhook: the number a user keeps is bounded. */
export const MAX_WEBHOOKS_PER_USER = 20;

/** A new webhook of the caller; its secret is in this answer and on rotation only. */
export async function createWebhook(
  { db, actor, now, services: { webhookPolicy, vault } }: UseCaseContext<"webhookPolicy" | "vault">,
  input: RouteInput<typeof webhookRoutes.create>,
) {
  const url = await checkWebhookUrl(input.url, webhookPolicy);
  const accountId = input.bank_account ?? null;
  return db.transaction(async (tx) => {
    if (accountId !== null) {
      const [owned] = isUuid(accountId)
        ? await tx
            .select({ id: bankAccountOwners.bankAccountId })
            .from(bankAccountOwners)
            .where(
              and(
                eq(bankAccountOwners.bankAccountId, accountId.toLowerCase()),
                eq(bankAccountOwners.userId, actor.userId),
              ),
            )
        : [];
      if (!owned) throw unknownAccount("bank_account", accountId);
    }
    // The user's row serialises their creations, so two at once cannot pass the bound together.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.userId)).for("update");
    const [held] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, actor.userId));
    if ((held?.n ?? 0) >= MAX_WEBHOOKS_PER_USER)
      throw ValidationFailed.general(
        `A user may keep at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first.`,
      );
    await holdLiveCredential(tx, actor);
    const secret = generateWebhookSecret();
    const [row] = await tx
      .insert(webhooks)
      .values({
        userId: actor.userId,
        url,
        eventTypes: input.event_types,
        bankAccountId: accountId?.toLowerCase() ?? null,
        description: input.description ?? "",
        secret: vault.seal("webhook-secret", secret),
        createdAt: now,
        ...webhookCredentialOf(actor),
      })
      .returning();
    if (!row) throw new Error("webhook insert returned nothing");
    // It answers to the caller's credential, and its owner hears of it (decision 0048).
    await emailWebhookCreated(tx, actor, row, "created", { vault });
    return { ...toWebhookView(row), secret };
  });
}
