import { invitationRoutes } from "@allot/contract/invitations/routes";
import { invitations } from "@allot/db/schema/invitations";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitationFlow } from "../../test/testing/invitation-flow";
import { useTestApp } from "../../test/testing/test-app";
import { useTestMailbox } from "../../test/testing/test-mailbox";

const HOSTILE_NAME = `Family <b>"Budget"</b> & 'Co'`;
const ESCAPED_NAME = "Family &lt;b&gt;&quot;Budget&quot;&lt;/b&gt; &amp; &#39;Co&#39;";

describe.each(testEngines())("link pages: invitations (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const flow = invitationFlow(t, mailbox);

  const status = async (secret: string) =>
    (await t.anonymous.call(invitationRoutes.get, { token: secret })).json().status;
  const press = (path: string, action: "accept" | "decline") =>
    t.inject({
      method: "POST",
      url: `${path}/${action}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });

  it("shows the invitation, escaped, with two forms, and GET changes nothing", async () => {
    const invitation = await flow.invite({ accountName: HOSTILE_NAME, bankName: "Bank <i>of</i> Tests" });
    for (const method of ["GET", "GET", "HEAD"] as const) {
      const page = await t.inject({ method, url: invitation.path });
      expect(page.statusCode).toBe(200);
      if (method === "HEAD") continue;
      expect(page.body).toContain(ESCAPED_NAME);
      expect(page.body).toContain("Bank &lt;i&gt;of&lt;/i&gt; Tests");
      expect(page.body).not.toContain("<b>");
      expect(page.body).toContain(invitation.owner.email);
      expect(page.body).toContain(invitation.inviteeEmail);
      expect(page.body).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+">/);
      expect(page.body).toContain(`<form method="post" action="${invitation.path}/accept">`);
      expect(page.body).toContain(`<form method="post" action="${invitation.path}/decline">`);
      expect(page.body).toContain("we email you a link to choose your password");
    }
    expect(await status(invitation.secret)).toBe("pending");
    expect((await mailbox.messagesTo(invitation.inviteeEmail)).map((m) => m.kind)).toEqual(["invitation"]);
  });

  it("accepts on the button press; a new user is told to check their email, which holds the link", async () => {
    const invitation = await flow.invite({ accountName: HOSTILE_NAME });
    const page = await press(invitation.path, "accept");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Invitation accepted");
    expect(page.body).toContain(`You now co-own\n<strong>${ESCAPED_NAME}</strong>`);
    expect(page.body).toContain("Check your email at");
    expect(await status(invitation.secret)).toBe("accepted");
    const welcome = await mailbox.latestTo(invitation.inviteeEmail);
    expect(mailbox.linkIn(welcome, "/links/password-reset/")).toBeTruthy();
  });

  it("tells an existing user to sign in instead", async () => {
    const invitee = await t.user();
    const invitation = await flow.invite({ invitee });
    const page = await press(invitation.path, "accept");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Sign in to Allot to see the account.");
    expect(page.body).not.toContain("Check your email");
  });

  it("declines on the button press", async () => {
    const invitation = await flow.invite();
    const page = await press(invitation.path, "decline");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Invitation declined");
    expect(await status(invitation.secret)).toBe("declined");
  });

  it("explains an answered invitation and refuses a second press plainly, without acting", async () => {
    const invitation = await flow.invite();
    await press(invitation.path, "decline");
    const page = await t.inject({ url: invitation.path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("This invitation has been declined.");
    expect(page.body).not.toContain("<form");
    const again = await press(invitation.path, "accept");
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain("The invitation could not be accepted");
    expect(again.body).toContain('role="alert"');
    expect(await status(invitation.secret)).toBe("declined");
  });

  it("explains an expired invitation", async () => {
    const invitation = await flow.invite();
    await t.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invitations.token, invitation.handle));
    const refused = await press(invitation.path, "accept");
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("The invitation could not be accepted");
    const page = await t.inject({ url: invitation.path });
    expect(page.body).toContain("This invitation has expired.");
    expect(page.body).not.toContain("<form");
  });

  it("shows a closed invitation's status alone, not the account, bank or owners", async () => {
    const invitation = await flow.invite({ accountName: "Private Savings", bankName: "Quiet Bank" });
    await press(invitation.path, "accept");
    const page = await t.inject({ url: invitation.path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("This invitation has already been accepted.");
    for (const hidden of ["Private Savings", "Quiet Bank", invitation.owner.email, invitation.inviteeEmail]) {
      expect(page.body).not.toContain(hidden);
    }
  });

  it("answers the owner's listed token with the 404 page and acts on nothing", async () => {
    const invitation = await flow.invite();
    const base = `/links/invitations/${invitation.handle}`;
    for (const [method, url] of [
      ["GET", base],
      ["POST", `${base}/accept`],
      ["POST", `${base}/decline`],
    ] as const) {
      const page = await t.inject({ method, url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain("Link not found");
    }
    expect(await status(invitation.secret)).toBe("pending");
  });

  it("answers an unknown token with the 404 page, on GET and on both buttons", async () => {
    for (const [method, url] of [
      ["GET", "/links/invitations/nobody-issued-this"],
      ["POST", "/links/invitations/nobody-issued-this/accept"],
      ["POST", "/links/invitations/nobody-issued-this/decline"],
      ["GET", `/links/invitations/${"x".repeat(100)}`],
    ] as const) {
      const page = await t.inject({ method, url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain("Link not found");
    }
  });
});
