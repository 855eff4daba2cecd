import type { WebhookEvent, WebhookEventType, WebhookPayload } from "@allot/contract/webhooks/webhook";
import { WebhookVerificationError as StandardVerificationError, Webhook } from "standardwebhooks";

export type { WebhookEvent, WebhookEventType, WebhookPayload };

/** A request's headers: a plain object (node's `IncomingHttpHeaders`), or a fetch `Headers`. */
export type WebhookHeaders =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { get(name: string): string | null };

/** Why a delivery was refused, for logs; `message` says it in words. */
export type WebhookVerificationReason =
  | "missing_headers"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "no_matching_signature";

/** The request is not a delivery signed with this secret in the last 5 minutes: answer it with a 4xx. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const NAMES = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/** standardwebhooks' messages (its version is pinned), each with what a receiver can act on. */
const FAILURES: Record<string, [WebhookVerificationReason, string]> = {
  "Missing required headers": [
    "missing_headers",
    "The request lacks a webhook-id, webhook-timestamp or webhook-signature header.",
  ],
  "Invalid Signature Headers": ["invalid_timestamp", "webhook-timestamp is not a number of seconds."],
  "Message timestamp too old": [
    "timestamp_too_old",
    "webhook-timestamp is more than 5 minutes old: a replayed or delayed request, or a wrong clock here.",
  ],
  "Message timestamp too new": [
    "timestamp_too_new",
    "webhook-timestamp is more than 5 minutes ahead of this machine's clock.",
  ],
};

const NO_MATCH: [WebhookVerificationReason, string] = [
  "no_matching_signature",
  "No signature in webhook-signature matches this body and secret: a wrong secret, or a body changed on the way (verify the raw bytes, before parsing them).",
];

/**
 * Checks a delivery the way docs/spec/extensions.md §4 signs it (Standard Webhooks: HMAC-SHA256
 * over `{webhook-id}.{webhook-timestamp}.{body}`, any of the space-separated signatures, a
 * timestamp within 5 minutes) and returns its body parsed, typed by its `type`: narrowing on it
 * types `data.data` as that event type's data. `body` must be the raw request body: JSON parsed and
 * serialised again is not the text that was signed.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
): WebhookPayload {
  if (typeof body !== "string" && !(body instanceof Uint8Array))
    throw new TypeError(
      "verifyWebhook needs the raw body (a string or bytes) as it arrived, not parsed JSON: the signature covers those bytes.",
    );
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (error) {
    throw new TypeError("The secret is not a webhook secret: expected whsec_ followed by base64.", {
      cause: error,
    });
  }
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  try {
    webhook.verify(text, signatureHeaders(headers), { jsonParse: false });
  } catch (error) {
    if (!(error instanceof StandardVerificationError)) throw error;
    const [reason, message] = FAILURES[error.message] ?? NO_MATCH;
    throw new WebhookVerificationError(reason, message, { cause: error });
  }
  return JSON.parse(text) as WebhookPayload;
}

/** The three headers by their lower-case names; a repeated one (an array) joined as signatures are. */
function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const found: Record<string, string> = {};
  if (typeof headers.get === "function") {
    const { get } = headers as { get(name: string): string | null };
    for (const name of NAMES) {
      const value = get.call(headers, name);
      if (value !== null) found[name] = value;
    }
    return found;
  }
  for (const [key, value] of Object.entries(
    headers as Record<string, string | readonly string[] | undefined>,
  )) {
    const name = key.toLowerCase();
    if (!(NAMES as readonly string[]).includes(name) || value === undefined) continue;
    found[name] = typeof value === "string" ? value : value.join(" ");
  }
  return found;
}
