import type { Tx } from "@allot/db/create-database";
import { users } from "@allot/db/schema/users";
import { eq } from "drizzle-orm";
import { composeEmail } from "../email/compose-email";
import { enqueueEmail } from "../email/enqueue-email";
import type { SecretVault } from "../secrets/secret-vault";
import type { Actor } from "../shared/actor";
import { credentialWords } from "./webhook-credential";

/**
 * Tells the owner, in the transaction that made it, that a webhook now sends their account's
 * events somewhere: a security email, never suppressed (decision 0048). It names the receiver's
 * host only (a path can carry the receiver's own secret) and the credential that did it.
 */
export async function emailWebhookCreated(
  tx: Tx,
  actor: Actor,
  webhook: { url: string; eventTypes: string[] },
  how: "created" | "enabled again",
  { vault }: { vault: SecretVault },
) {
  const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
  // A system account has no address of its own: there is nobody to tell.
  if (!owner?.email) return;
  const host = new URL(webhook.url).hostname;
  const events = webhook.eventTypes.includes("*")
    ? "every event of your accounts"
    : `events of your accounts (${webhook.eventTypes.join(", ")})`;
  const email = composeEmail({
    subject:
      how === "created"
        ? "A webhook was added to your Allot account"
        : "A webhook of your Allot account was enabled again",
    paragraphs: [
      `A webhook ${how === "created" ? "was created" : "was enabled again"} with ${credentialWords(actor)}: Allot now sends ${events} to ${host}.`,
      "If that was not you, delete the webhook, reset your password and revoke any API key you do not recognise: revoking the key, or a reset that signs that login out, also disables the webhooks it made.",
    ],
    footer: "You get this email whenever a webhook is set up on your behalf; it cannot be turned off.",
  });
  await enqueueEmail(tx, { kind: "webhook_created", to: owner.email, ...email }, { vault });
}
