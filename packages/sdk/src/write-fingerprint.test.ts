import { transactionRoutes } from "@allot/contract/transactions/routes";
import { webhookRoutes } from "@allot/contract/webhooks/routes";
import { describe, expect, it } from "vitest";
import { callerIdentity, journaledWrite } from "./write-fingerprint";

/*
 * What makes two writes "the same" for a write journal: the same request, built again the same way
 * (as a re-run command builds it), to the same server by the same caller — and what keeps
 * credentials out of it.
 */

const jwt = (payload: unknown) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.signature`;
const ANN = callerIdentity({ apiKey: "allot_ann" }, null);
const caller = { apiBase: "http://127.0.0.1:3000/api", identity: ANN };
const split = (input: object, who = caller) =>
  journaledWrite(transactionRoutes.split, input, who).fingerprint;
const SPLIT = { id: "t1", splits: { b1: "60.00", b2: "12.50" } };

describe("journaledWrite", () => {
  it("names the route and the path sent, with a SHA-256 fingerprint", () => {
    expect(journaledWrite(transactionRoutes.split, SPLIT, caller)).toEqual({
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      method: "POST",
      routePath: "/v1/transactions/{id}/splits/",
      path: "/v1/transactions/t1/splits/",
    });
  });

  it("gives one fingerprint to one request built again", () => {
    expect(split({ id: "t1", splits: { b1: "60.00", b2: "12.50" } })).toBe(split(SPLIT));
    // Left out and undefined are the same body on the wire.
    expect(split({ ...SPLIT, memo: undefined })).toBe(split(SPLIT));
  });

  it("gives another to any other request: body, path, query, server or caller", () => {
    const others = [
      split({ ...SPLIT, splits: { b1: "60.00", b2: "12.51" } }),
      split({ ...SPLIT, splits: { b1: "60.00" } }),
      split({ ...SPLIT, id: "t2" }),
      split(SPLIT, { ...caller, apiBase: "http://127.0.0.1:3001/api" }),
      split(SPLIT, { ...caller, identity: callerIdentity({ apiKey: "allot_bob" }, null) }),
      journaledWrite({ ...transactionRoutes.split, method: "PUT" }, SPLIT, caller).fingerprint,
      journaledWrite(webhookRoutes.delete, { id: "w1" }, caller).fingerprint,
    ];
    expect(new Set([split(SPLIT), ...others]).size).toBe(others.length + 1);
  });
});

describe("callerIdentity", () => {
  it("is a hash of an API key, never the key itself", () => {
    expect(ANN).toMatch(/^api-key:[0-9a-f]{64}$/);
    expect(ANN).not.toContain("allot_ann");
    expect(callerIdentity({ apiKey: "allot_ann" }, null)).toBe(ANN);
  });

  it("is the user a login's access token names: the same across its rotated tokens", () => {
    const first = jwt({ sub: "7", sid: "s1", exp: 1 });
    const rotated = jwt({ sub: "7", sid: "s1", exp: 2 });
    expect(callerIdentity({ bearer: first }, { access: first, refreshToken: null })).toBe("user:7");
    expect(callerIdentity(undefined, { access: rotated, refreshToken: "rt-2" })).toBe("user:7");
    expect(callerIdentity(undefined, { access: jwt({ sub: "8" }), refreshToken: null })).toBe("user:8");
  });

  it("is a hash of a token that names no user, and anonymous without a credential", () => {
    const identity = callerIdentity({ bearer: "opaque" }, { access: "opaque", refreshToken: null });
    expect(identity).toMatch(/^token:[0-9a-f]{64}$/);
    expect(callerIdentity(undefined, { access: "", refreshToken: "rt-1" })).toMatch(/^token:[0-9a-f]{64}$/);
    expect(callerIdentity(undefined, null)).toBe("anonymous");
  });
});
