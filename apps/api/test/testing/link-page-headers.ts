import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";

/** The headers every `/links/…` response carries (decision 0014): HTML, no framing, no leaks, strict CSP. */
export function expectLinkPageHeaders(response: LightMyRequestResponse) {
  expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(response.headers["x-frame-options"]).toBe("DENY");
  expect(response.headers["referrer-policy"]).toBe("no-referrer");
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  const csp = String(response.headers["content-security-policy"]);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
}
