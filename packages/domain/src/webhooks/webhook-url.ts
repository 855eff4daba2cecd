import { lookup } from "node:dns/promises";
import { ValidationFailed } from "../shared/errors";
import { isForbiddenAddress, literalAddress, type WebhookPolicy } from "./address-policy";

const LOOKUP_TIMEOUT_MS = 5_000;

const refuse = (message: string) => ValidationFailed.on("url", message);

/**
 * A webhook URL as docs/spec/extensions.md §4 admits it: https (http when allowed), no user name or
 * password in it (they would be logged and shown), and a host whose every address is public unless
 * private ones are allowed. The sender checks the addresses again at each delivery (DNS can change).
 */
export async function checkWebhookUrl(text: string, policy: WebhookPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse("Enter a valid URL.");
  }
  const schemes = policy.allowHttp ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol))
    throw refuse(
      policy.allowHttp ? "The URL must start with https:// or http://." : "The URL must start with https://.",
    );
  if (url.username || url.password) throw refuse("Leave the user name and password out of the URL.");
  if (policy.allowPrivate) return url.href;
  const addresses = await addressesOf(url.hostname);
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden)
    throw refuse(
      `The URL's host resolves to ${forbidden}, a private or reserved address; webhooks reach public hosts only.`,
    );
  return url.href;
}

async function addressesOf(hostname: string): Promise<string[]> {
  const literal = literalAddress(hostname);
  if (literal) return [literal];
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("timeout")), LOOKUP_TIMEOUT_MS).unref(),
  );
  try {
    const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return found.map((entry) => entry.address);
  } catch {
    throw refuse(`The host ${hostname} could not be resolved.`);
  }
}
