import { describe, expect, it } from "vitest";
import { digestEmail, immediateEmail, notificationLines } from "./notification-email";

const at = new Date("2026-11-23T10:00:00Z");

describe("notification emails", () => {
  it("says what an import did, naming the account", () => {
    expect(
      immediateEmail({
        kind: "balance_mismatch",
        payload: { balance_mismatch: "-5.00" },
        accountName: "Checking",
        createdAt: at,
      }),
    ).toMatchObject({
      subject: "Balance mismatch: Checking",
      paragraphs: [
        "After the latest import, “Checking”'s balance in Allot differs from the bank's by -5.00.",
        "Look for a missing or duplicated transaction.",
      ],
    });
    expect(
      notificationLines({
        kind: "transaction_posted",
        payload: {
          count: 2,
          transactions: [{ transaction_date: "2026-11-20", description: "GROCER", amount: "-20.00" }],
        },
        accountName: "Checking",
        createdAt: at,
      }),
    ).toEqual(["2 posted transaction(s) arrived in “Checking”.", "2026-11-20 GROCER -20.00"]);
  });

  it("falls back to the kind's name and the payload's plain values", () => {
    expect(
      notificationLines({
        kind: "invitation_accepted",
        payload: { invitee_email: "kim@example.com", nested: { no: 1 } },
        accountName: "Joint",
        createdAt: at,
      }),
    ).toEqual(["Invitation accepted (“Joint”).", "invitee email: kim@example.com"]);
  });

  it("gathers a digest with a subject counting its updates", () => {
    const email = digestEmail([
      {
        kind: "import_error",
        payload: { error_count: 1, errors: { amount: ["Bad."] } },
        accountName: "A",
        createdAt: at,
      },
      { kind: "funding_complete", payload: { transfers: 3 }, accountName: "A", createdAt: at },
    ]);
    expect(email.subject).toBe("Allot digest: 2 updates");
    expect(email.paragraphs).toEqual([
      "Import error — 2026-11-23 10:00 UTC",
      "An import into “A” was refused (1 problem(s)); nothing was changed.\namount: Bad.",
      "Funding complete — 2026-11-23 10:00 UTC",
      "Funding complete (“A”).\ntransfers: 3",
    ]);
  });
});
