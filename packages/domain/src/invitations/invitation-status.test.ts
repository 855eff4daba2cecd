import type { InvitationStatus } from "@allot/contract/invitations/invitation";
import { describe, expect, it } from "vitest";
import { closedInvitationMessage, effectiveStatus, invitationExpiry } from "./invitation-status";

const now = new Date("2025-03-10T12:00:00Z");

describe("invitationExpiry", () => {
  it("is seven days after creation", () => {
    expect(invitationExpiry(new Date("2025-03-01T08:30:00Z")).toISOString()).toBe("2025-03-08T08:30:00.000Z");
  });
});

describe("effectiveStatus", () => {
  it.each<{ status: InvitationStatus; expiresAt: string; expected: InvitationStatus }>([
    { status: "pending", expiresAt: "2025-03-10T12:00:01Z", expected: "pending" },
    { status: "pending", expiresAt: "2025-03-10T12:00:00Z", expected: "expired" },
    { status: "pending", expiresAt: "2025-03-01T00:00:00Z", expected: "expired" },
    { status: "accepted", expiresAt: "2025-03-01T00:00:00Z", expected: "accepted" },
    { status: "declined", expiresAt: "2025-03-01T00:00:00Z", expected: "declined" },
    { status: "cancelled", expiresAt: "2025-03-20T00:00:00Z", expected: "cancelled" },
    { status: "expired", expiresAt: "2025-03-01T00:00:00Z", expected: "expired" },
  ])("$status expiring $expiresAt is $expected", ({ status, expiresAt, expected }) => {
    expect(effectiveStatus({ status, expiresAt: new Date(expiresAt) }, now)).toBe(expected);
  });
});

describe("closedInvitationMessage", () => {
  it("lets a pending invitation move", () => {
    expect(closedInvitationMessage("pending")).toBeNull();
  });
  it.each([
    ["accepted", "already been accepted"],
    ["declined", "already been declined"],
    ["cancelled", "was cancelled"],
    ["expired", "has expired"],
  ] as const)("refuses a %s one", (status, words) => {
    expect(closedInvitationMessage(status)).toContain(words);
  });
});
