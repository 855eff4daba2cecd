import { describe, expect, it } from "vitest";
import { invitationLimitRetryAfter } from "./invitation-limit";

const now = new Date("2025-03-31T00:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

describe("invitationLimitRetryAfter", () => {
  it.each([
    { name: "none sent", sent: [], expected: null },
    { name: "four in the window", sent: [1, 2, 3, 4], expected: null },
    { name: "five, one of them older than 30 days", sent: [1, 2, 3, 4, 31], expected: null },
    { name: "five, the oldest exactly 30 days ago (already out)", sent: [1, 2, 3, 4, 30], expected: null },
    // The oldest of the five leaves the window in 2 days.
    { name: "five in the window", sent: [1, 2, 3, 4, 28], expected: 2 * 86_400 },
    // Seven in the window: room for one more once three have left; the third oldest (27 days ago)
    // leaves in 3 days.
    { name: "seven in the window", sent: [1, 2, 25, 26, 27, 28, 29], expected: 3 * 86_400 },
  ])("$name", ({ sent, expected }) => {
    expect(invitationLimitRetryAfter(sent.map(daysAgo), now)).toBe(expected);
  });

  it("waits at least one second", () => {
    const justInside = new Date(now.getTime() - 30 * 86_400_000 + 10);
    expect(invitationLimitRetryAfter([justInside, daysAgo(1), daysAgo(1), daysAgo(1), daysAgo(1)], now)).toBe(
      1,
    );
  });

  it("does not depend on the order given", () => {
    expect(
      invitationLimitRetryAfter([daysAgo(28), daysAgo(1), daysAgo(4), daysAgo(2), daysAgo(3)], now),
    ).toBe(2 * 86_400);
  });
});
