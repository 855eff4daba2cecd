import { describe, expect, it } from "vitest";
import { retryNoticeText } from "./retry-notice";

const notice = (reason: "throttled" | "key_in_progress" | "connection_reset", delayMs: number) => ({
  reason,
  delayMs,
  retry: 1,
  method: "GET",
  url: "http://127.0.0.1:3000/api/v1/budgets/",
});

describe("retryNoticeText", () => {
  it.each([
    [notice("throttled", 12_000), "Rate limited by the server: retrying in 12 s"],
    [notice("throttled", 1_500), "Rate limited by the server: retrying in 2 s"],
    [notice("throttled", 0), "Rate limited by the server: retrying now"],
    [
      notice("key_in_progress", 1_000),
      "The server is still running the first attempt of this write: retrying in 1 s",
    ],
    [notice("connection_reset", 50), null],
  ])("says %j as %j", (given, text) => {
    expect(retryNoticeText(given)).toBe(text);
  });
});
