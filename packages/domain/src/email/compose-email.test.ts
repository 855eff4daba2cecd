import { hasControlCharacters } from "@allot/contract/http/control-characters";
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

  it("carries no control character anywhere: a CR LF in a name cannot add a header, an ESC cannot reach a terminal", () => {
    const name = "Joint\r\nBcc: evil@example.com\u001b]0;pwned\u0007\t\u0085";
    const email = composeEmail({
      subject: `Ada invited you to share "${name}" on Allot\n`,
      paragraphs: [`Ada invited you to co-own "${name}".`],
      action: { label: `Open ${name}`, url: "https://allot.test/links/x" },
      footer: `About ${name}.`,
    });
    expect(email.subject).toBe(
      'Ada invited you to share "Joint  Bcc: evil@example.com ]0;pwned   " on Allot',
    );
    // The bodies keep only their own line breaks: one between paragraphs, one at the end.
    for (const body of [email.text, email.html])
      expect(hasControlCharacters(body.replace(/\n/g, "")), body).toBe(false);
    expect(email.text.split("\n")).toEqual([
      'Ada invited you to co-own "Joint  Bcc: evil@example.com ]0;pwned   ".',
      "",
      "Open Joint  Bcc: evil@example.com ]0;pwned   : https://allot.test/links/x",
      "",
      "About Joint  Bcc: evil@example.com ]0;pwned   .",
      "",
    ]);
  });
});
