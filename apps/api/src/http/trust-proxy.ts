import { isIP } from "node:net";
import { z } from "zod";

/**
 * Whose `X-Forwarded-For` fastify believes (its `trustProxy`, matched by proxy-addr): the proxies'
 * addresses or CIDR ranges, or a hop count. Left out: no proxy is trusted, the peer is the client.
 */
export type TrustProxy = number | string[];

// proxy-addr's names for the usual private ranges, handy in a container network.
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

const isAddressOrRange = (entry: string) => {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || address.includes("%") || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};

/** TRUST_PROXY: `2` (hops), or `10.0.0.1, 10.1.0.0/16, ::1` (addresses and CIDR ranges). */
export const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const wrong = entries.filter((entry) => !isAddressOrRange(entry));
    if (entries.length === 0 || wrong.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `TRUST_PROXY must be a hop count or a comma-separated list of IP addresses or CIDR ranges${
          wrong.length ? ` (not ${wrong.join(", ")})` : ""
        }`,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * As fastify's `trustProxy` takes it: its types leave out the hop count it supports, so a count
 * becomes the same test fastify would make of it (trust the nearest `count` hops).
 */
export const fastifyTrustProxy = (trust: TrustProxy | undefined) =>
  typeof trust === "number" ? (_address: string, hop: number) => hop < trust : (trust ?? false);
