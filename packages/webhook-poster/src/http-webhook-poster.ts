import { type LookupAddress, lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import {
  isForbiddenAddress,
  literalAddress,
  type WebhookPolicy,
} from "@allot/domain/webhooks/address-policy";
import type { WebhookPoster, WebhookRequest, WebhookResponse } from "@allot/domain/webhooks/webhook-poster";
import { Agent, request } from "undici";

/** docs/spec/extensions.md §4: a 2xx within this long is success. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read. */
export const MAX_ANSWER_BYTES = 64 * 1024;
// Of an error answer, this much is kept as the delivery's last_error.
const ERROR_TEXT_CHARS = 500;

export interface HttpWebhookPoster extends WebhookPoster {
  close(): Promise<void>;
}

/**
 * Posts webhooks over HTTP(S) with undici. Every connection's addresses are checked in the
 * socket's own DNS lookup, so the address checked is the address connected to (no DNS rebinding
 * between a check and the connection); literal IPs are checked before. Redirects are not followed.
 */
export function httpWebhookPoster(
  policy: WebhookPolicy,
  { timeoutMs = WEBHOOK_TIMEOUT_MS }: { timeoutMs?: number } = {},
): HttpWebhookPoster {
  const agent = new Agent({
    connect: { timeout: timeoutMs, lookup: policy.allowPrivate ? undefined : publicOnlyLookup },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return {
    async post(delivery: WebhookRequest): Promise<WebhookResponse> {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      const refusal = refusedUrl(delivery.url, policy);
      if (refusal) return { status: null, timeMs: 0, error: refusal };
      try {
        const answer = await request(delivery.url, {
          method: "POST",
          headers: delivery.headers,
          body: delivery.body,
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const timeMs = elapsed();
        const text = await readUpTo(answer.body, MAX_ANSWER_BYTES);
        const { statusCode: status } = answer;
        if (status >= 200 && status < 300) return { status, timeMs, error: null };
        const redirect = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
        const snippet = text.trim().slice(0, ERROR_TEXT_CHARS);
        return { status, timeMs, error: `HTTP ${status}${redirect}${snippet ? `: ${snippet}` : ""}` };
      } catch (error) {
        return { status: null, timeMs: elapsed(), error: failureText(error, timeoutMs) };
      }
    },
    close: () => agent.close(),
  };
}

// A refusal names the server setting behind it: a webhook that worked until a restart without
// that setting says why it stopped (decision 0057).
const NOT_HTTP = "the server's WEBHOOK_ALLOW_HTTP is not true";
const NOT_PRIVATE = "the server's WEBHOOK_ALLOW_PRIVATE is not true";

/** Why a URL is not tried at all: its scheme, or a literal address the policy refuses. */
function refusedUrl(text: string, policy: WebhookPolicy): string | null {
  const url = new URL(text);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp))
    return `Refused: ${url.protocol}// URLs are not allowed, only https:// (${NOT_HTTP}).`;
  const literal = literalAddress(url.hostname);
  if (literal && !policy.allowPrivate && isForbiddenAddress(literal))
    return `Refused: ${literal} is a private or reserved address (${NOT_PRIVATE}).`;
  return null;
}

class ForbiddenAddress extends Error {}

/** dns.lookup, refusing any answer that holds a non-public address. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const forbidden = found.find((entry) => isForbiddenAddress(entry.address));
    if (forbidden)
      return callback(
        new ForbiddenAddress(
          `Refused: ${hostname} resolves to ${forbidden.address}, a private or reserved address (${NOT_PRIVATE}).`,
        ),
        "",
        0,
      );
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, found);
    const [first] = found;
    if (!first) return callback(new Error(`${hostname} has no address`), "", 0);
    callback(null, first.address, first.family);
  });
};

/** The answer's first `limit` bytes as text; the rest is not read. */
async function readUpTo(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    // A body cut off or too slow after the status: the status is the answer.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

function failureText(error: unknown, timeoutMs: number): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof ForbiddenAddress) return cause.message;
  const code = error instanceof Error ? `${error.name} ${(error as { code?: string }).code ?? ""}` : "";
  if (/Timeout|AbortError/i.test(code)) return `No answer within ${timeoutMs / 1000} seconds.`;
  const text =
    cause instanceof Error
      ? `${(cause as { code?: string }).code ?? cause.name}: ${cause.message}`
      : String(cause);
  return text.slice(0, ERROR_TEXT_CHARS);
}
