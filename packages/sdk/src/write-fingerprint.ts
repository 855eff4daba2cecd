import { createHash } from "node:crypto";
import { requestParts } from "@allot/contract/http/request-parts";
import type { RouteSpec } from "@allot/contract/http/route";
import { subjectOf } from "./access-token-claims";
import type { Credentials, Session } from "./session-auth";
import type { JournaledWrite } from "./write-journal";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Who a call is sent as, to tell one caller's writes from another's without keeping a credential:
 * the user a login's access token names (its tokens rotate, its user stays; the server keeps keys
 * per user too), else a SHA-256 of the API key or token.
 */
export function callerIdentity(credentials: Credentials | undefined, session: Session | null): string {
  if (credentials && "apiKey" in credentials) return `api-key:${sha256(credentials.apiKey)}`;
  if (!session) return "anonymous";
  const user = subjectOf(session.access);
  if (user !== null) return `user:${user}`;
  return `token:${sha256(session.access || (session.refreshToken ?? ""))}`;
}

/** A keyed write as its journal sees it: the request the transport will send, fingerprinted. */
export function journaledWrite(
  route: Pick<RouteSpec, "method" | "path">,
  input: unknown,
  caller: { apiBase: string; identity: string },
): JournaledWrite {
  const { path, body } = requestParts(route, input);
  const request = [caller.apiBase, caller.identity, route.method, path, canonicalJson(body)];
  return { fingerprint: sha256(JSON.stringify(request)), method: route.method, routePath: route.path, path };
}

/** JSON with every object's keys sorted: one text for one value, whatever order it was built in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    typeof item === "object" && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
