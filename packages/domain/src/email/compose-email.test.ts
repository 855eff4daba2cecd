import { describe, expect, it } from "vitest";
import { composeEmail } from "./compose-email";

describe("composeEmail", () => {
  it("gives the same words as text and as escaped HTML", () => {
    const email = composeEmail({
      subject: "You are invited",
      paragraphs: ["Sam <sam@example.com> invited you to “Joint & Co”."],
      action: { label: "Accept the invitation", url: "https://allot.test/links/invitations/abc?x=1&y=2" },
      footer: "Not expecting this? Ignore it.",
    });
    expect(email.subject).toBe("You are invited");
    expect(email.text).toBe(
      "Sam <sam@example.com> invited you to “Joint & Co”.\n\n" +
        "Accept the invitation: https://allot.test/links/invitations/abc?x=1&y=2\n\n" +
        "Not expecting this? Ignore it.\n",
    );
    expect(email.html).toContain("<p>Sam &lt;sam@example.com&gt; invited you to “Joint &amp; Co”.</p>");
    expect(email.html).toContain('href="https://allot.test/links/invitations/abc?x=1&amp;y=2"');
    expect(email.html).not.toContain("<sam@");
  });

  it("leaves out the action and footer when there are none", () => {
    const email = composeEmail({ subject: "S", paragraphs: ["One.", "Two."] });
    expect(email.text).toBe("One.\n\nTwo.\n");
    expect(email.html).not.toContain("<a ");
  });
});
