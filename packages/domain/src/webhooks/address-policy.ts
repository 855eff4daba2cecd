import ipaddr from "ipaddr.js";

/** What the server's environment allows webhooks to reach (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). */
export interface WebhookPolicy {
  /** `http://` URLs too, not only `https://`. */
  allowHttp: boolean;
  /** Hosts on loopback, private, link-local, unique-local and other non-public addresses. */
  allowPrivate: boolean;
}

export const STRICT_WEBHOOK_POLICY: WebhookPolicy = { allowHttp: false, allowPrivate: false };

/**
 * True when a webhook may not be sent to this address: anything ipaddr.js does not class as public
 * unicast (loopback, RFC 1918, link-local such as 169.254.169.254, IPv6 unique-local, multicast,
 * carrier-grade NAT, reserved, and IPv4 behind IPv4-mapped IPv6). Unparseable text is refused too.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  // `::ffff:127.0.0.1` is 127.0.0.1: classed as the IPv4 address it carries.
  return ipaddr.process(address).range() !== "unicast";
}

/** The IP address a URL's host names literally (`[::1]` unbracketed), or null for a DNS name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}
