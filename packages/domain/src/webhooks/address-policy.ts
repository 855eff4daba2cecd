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
 * carrier-grade NAT, reserved, and IPv4 behind IPv4-mapped IPv6), and the whole IPv4-compatible
 * `::/96`. Unparseable text is refused too.
 */
export function isForbiddenAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === null) return true;
  // `::ffff:127.0.0.1` is 127.0.0.1: classed as the IPv4 address it carries.
  return ipaddr.process(canonical).range() !== "unicast" || isIpv4Compatible(ipaddr.parse(canonical));
}

/**
 * The address as the URL standard writes it (IPv6 in hex: `::8.8.8.8` → `::808:808`), or null.
 * ipaddr.js reads `::a.b.c.d` as if it were `::ffff:a.b.c.d`; the hex form it reads right.
 */
function canonicalAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  if (!address.includes(":")) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null; // a zone id (`fe80::1%eth0`) or anything else no URL can carry
  }
}

/**
 * `::a.b.c.d` (RFC 4291 §2.5.5.1, deprecated): ipaddr.js classes `::7f00:1` — how a URL writes
 * `[::127.0.0.1]` — as public unicast, yet some stacks reach the IPv4 address it embeds. No public
 * host is reached that way, so the whole /96 is refused, public IPv4 inside it included.
 */
function isIpv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0);
}

/** The IP address a URL's host names literally (`[::1]` unbracketed), or null for a DNS name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}
