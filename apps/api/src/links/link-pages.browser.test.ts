import type { AddressInfo } from "node:net";
import { credentialRoutes } from "@allot/contract/credentials/routes";
import { invitationRoutes } from "@allot/contract/invitations/routes";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeInChromium, launchChromium, watchedPage } from "../../test/testing/chromium";
import { invitationFlow } from "../../test/testing/invitation-flow";
import { useTestApp } from "../../test/testing/test-app";
import { useTestMailbox } from "../../test/testing/test-mailbox";

const STRONG = "plum sofa quietly river lantern";

/**
 * The emailed links as a person follows them: a real server on a port, headless Chromium with
 * JavaScript off (the pages are plain forms), buttons clicked, results read off the page.
 */
describeInChromium("link pages in a browser (%s)", (engine) => {
  const t = useTestApp(engine);
  const mailbox = useTestMailbox(() => t.db);
  const invitations = invitationFlow(t, mailbox);
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let problems: string[] = [];

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext({ javaScriptEnabled: false });
  });
  // Each test's pages loaded without a console error or a refused resource (a CSP refusal included).
  afterEach(() => {
    const found = problems;
    problems = [];
    expect(found).toEqual([]);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  /** A watched page (console errors and failed requests go to `problems`) at `path`. */
  async function open(path: string): Promise<Page> {
    const page = await watchedPage(context, problems);
    const response = await page.goto(origin + path);
    expect(response?.status(), path).toBeLessThan(500);
    return page;
  }

  /** The path of the newest `/links/…` link emailed to the address (the email's origin is not ours). */
  async function emailedPath(address: string, prefix: string) {
    const messages = (await mailbox.messagesTo(address)).filter((m) => m.text.includes(prefix));
    const message = messages[messages.length - 1];
    if (!message) throw new Error(`no ${prefix} email to ${address}`);
    return new URL(mailbox.linkIn(message, prefix)).pathname;
  }

  /** An element's text as a reader sees it: whitespace collapsed. */
  const textOf = async (page: Page, selector: string) =>
    ((await page.locator(selector).textContent()) ?? "").replace(/\s+/g, " ").trim();

  const invitationStatus = async (secret: string) =>
    (await t.anonymous.call(invitationRoutes.get, { token: secret })).json().status;

  it("accepts an invitation, then sets the new user's password from the emailed link", async () => {
    const invitation = await invitations.invite({ accountName: "Family <Budget> & Co" });
    const page = await open(invitation.path);
    await expect(page.locator("h1").textContent()).resolves.toBe("Invitation to share a bank account");
    const details = await textOf(page, "dl");
    expect(details).toContain("Family <Budget> & Co");
    expect(details).toContain("Link Bank");
    expect(details).toContain(invitation.owner.email);
    expect(details).toContain(invitation.inviteeEmail);
    await page.reload();
    expect(await invitationStatus(invitation.secret)).toBe("pending");

    await page.getByRole("button", { name: "Accept" }).click();
    await expect(page.locator("h1").textContent()).resolves.toBe("Invitation accepted");
    const result = await textOf(page, "main");
    expect(result).toContain("You now co-own Family <Budget> & Co (Link Bank)");
    expect(result).toContain(`Check your email at ${invitation.inviteeEmail}`);
    expect(await invitationStatus(invitation.secret)).toBe("accepted");

    // The welcome email's link: a weak password, then a mismatch, then a good one.
    const reset = await open(await emailedPath(invitation.inviteeEmail, "/links/password-reset/"));
    await reset.getByLabel("New password", { exact: true }).fill("password");
    await reset.getByLabel("Confirm the new password").fill("password");
    await reset.getByRole("button", { name: "Set the password" }).click();
    await expect(reset.locator("#new_password-error").isVisible()).resolves.toBe(true);
    await reset.getByLabel("New password", { exact: true }).fill(STRONG);
    await reset.getByLabel("Confirm the new password").fill(`${STRONG}!`);
    await reset.getByRole("button", { name: "Set the password" }).click();
    await expect(reset.locator("#confirm_password-error").isVisible()).resolves.toBe(true);
    await reset.getByLabel("New password", { exact: true }).fill(STRONG);
    await reset.getByLabel("Confirm the new password").fill(STRONG);
    await reset.getByRole("button", { name: "Set the password" }).click();
    await expect(reset.locator("h1").textContent()).resolves.toBe("Password set");
    await expect(t.login(invitation.inviteeEmail, STRONG)).resolves.toMatch(/^Bearer /);

    // Opened again, the link says it was answered and offers no buttons.
    const again = await open(invitation.path);
    expect(await textOf(again, "main")).toContain("already been accepted");
    expect(await again.getByRole("button", { name: "Accept" }).count()).toBe(0);
  });

  it("declines an invitation; the link then says it is no longer pending", async () => {
    const invitation = await invitations.invite({ accountName: "Holiday fund" });
    const page = await open(invitation.path);
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.locator("h1").textContent()).resolves.toBe("Invitation declined");
    expect(await textOf(page, "main")).toContain("Holiday fund");
    expect(await invitationStatus(invitation.secret)).toBe("declined");
    const later = await open(invitation.path);
    expect(await textOf(later, "main")).toContain("has been declined");
  });

  it("shows a 404 page for a token nobody issued", async () => {
    const page = await open("/links/invitations/not-a-real-token");
    await expect(page.locator("h1").textContent()).resolves.toBe("Link not found");
  });

  it("confirms an email change from the new address, then undoes it from the old one", async () => {
    const user = await t.user();
    const newEmail = `moved-${Date.now()}@example.com`;
    const requested = await t.as(user).call(credentialRoutes.changeEmail, { new_email: newEmail });
    expect(requested.statusCode, requested.body).toBe(201);

    const confirm = await open(await emailedPath(newEmail, "/links/email-change/"));
    await confirm.getByRole("button", { name: "Confirm the new address" }).click();
    await expect(confirm.locator("h1").textContent()).resolves.toBe("Email address changed");
    await expect(t.login(newEmail, user.password)).resolves.toMatch(/^Bearer /);

    const revoke = await open(await emailedPath(user.email, "/links/email-change/"));
    await revoke.getByRole("button", { name: "Undo the change" }).click();
    await expect(revoke.locator("h1").textContent()).resolves.toBe("Email change undone");
    // Undone as a takeover: the password no longer works, and a link to choose one came back.
    await expect(t.login(user.email, user.password)).rejects.toThrow(/401/);
    const reset = await open(await emailedPath(user.email, "/links/password-reset/"));
    await reset.getByLabel("New password", { exact: true }).fill(STRONG);
    await reset.getByLabel("Confirm the new password").fill(STRONG);
    await reset.getByRole("button", { name: "Set the password" }).click();
    await expect(reset.locator("h1").textContent()).resolves.toBe("Password set");
    await expect(t.login(user.email, STRONG)).resolves.toMatch(/^Bearer /);

    // The confirm link was used: pressing it again explains, and changes nothing.
    const reused = await open(await emailedPath(newEmail, "/links/email-change/"));
    await reused.getByRole("button", { name: "Confirm the new address" }).click();
    await expect(reused.locator("h1").textContent()).resolves.toBe(
      "The email address could not be confirmed",
    );
    await expect(t.login(user.email, STRONG)).resolves.toMatch(/^Bearer /);
  });
});
