import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";

/** A 429 in the throttled shape, with a Retry-After within the window. */
export function expectThrottled(response: LightMyRequestResponse, windowSeconds = 3600) {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json()).toEqual({ detail: expect.stringMatching(/throttled/i), code: "throttled" });
  const retryAfter = response.headers["retry-after"];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}
