import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeEmail } from "@allot/domain/email/compose-email";
import { fileTransport } from "@allot/mail/file-transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../test/testing/run-cli";

// Each run starts the real CLI: a second or two, more on a busy machine.
const SLOW = { timeout: 120_000 };

const BASE = "http://127.0.0.1:3000";

/** A message as the server queues it: composed like every email, then written by the real `file` transport. */
async function send(
  directory: string,
  at: string,
  to: string,
  subject: string,
  action?: { label: string; url: string },
) {
  const content = composeEmail({
    subject,
    paragraphs: ["Hello from Allot."],
    action,
    footer: "Sent by Allot.",
  });
  await fileTransport(directory, "Allot <noreply@allot.test>").send({
    id: `${at.replace(/\D/g, "")}-${to}`,
    createdAt: new Date(at),
    kind: "invitation",
    to,
    ...content,
  });
}

// No database: the command reads the outbox folder alone, so this suite runs the same on every engine.
describe("allot admin mail", () => {
  let folder: string;
  let dataDir: string;
  let outbox: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-cli-mail-"));
    dataDir = join(folder, "data");
    outbox = join(dataDir, "mail");
    await send(
      outbox,
      "2026-12-01T09:00:00.000Z",
      "sam@example.com",
      "Olive invited you to co-own Checking",
      {
        label: "Accept the invitation",
        url: `${BASE}/links/invitations/first-secret`,
      },
    );
    await send(outbox, "2026-12-01T09:05:00.000Z", "ann@example.com", "Password changed");
    await send(outbox, "2026-12-01T09:10:00.250Z", "Sam@Example.com", "Welcome to Allot", {
      label: "Choose your password",
      url: `${BASE}/links/password-reset/second-secret`,
    });
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("lists the messages newest last with date, recipient, subject and links", SLOW, async () => {
    const run = await runCli(["admin", "mail"], { env: { DATA_DIR: dataDir } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        "date     2026-12-01 09:00:00 UTC",
        "to       sam@example.com",
        "subject  Olive invited you to co-own Checking",
        `link     ${BASE}/links/invitations/first-secret`,
        "",
        "date     2026-12-01 09:05:00 UTC",
        "to       ann@example.com",
        "subject  Password changed",
        "link     -",
        "",
        "date     2026-12-01 09:10:00 UTC",
        "to       Sam@Example.com",
        "subject  Welcome to Allot",
        `link     ${BASE}/links/password-reset/second-secret`,
        "",
      ].join("\n"),
    );
  });

  it(
    "--to filters by recipient in any case, --last keeps the newest, --json prints an array",
    SLOW,
    async () => {
      const env = { DATA_DIR: dataDir };
      const sam = await runCli(["admin", "mail", "--to", "SAM@example.COM", "--json"], { env });
      expect(sam.code, sam.stderr).toBe(0);
      expect(sam.json()).toEqual([
        {
          file: "2026-12-01T09-00-00-000Z-20261201090000000-sam@example.com.json",
          created_at: "2026-12-01T09:00:00.000Z",
          to: "sam@example.com",
          from: "Allot <noreply@allot.test>",
          kind: "invitation",
          subject: "Olive invited you to co-own Checking",
          links: [`${BASE}/links/invitations/first-secret`],
          text: expect.stringContaining(`Accept the invitation: ${BASE}/links/invitations/first-secret`),
        },
        expect.objectContaining({
          to: "Sam@Example.com",
          links: [`${BASE}/links/password-reset/second-secret`],
        }),
      ]);
      const newest = await runCli(["admin", "mail", "--to", "sam@example.com", "--last", "1", "--json"], {
        env,
      });
      expect(newest.json<{ links: string[] }[]>().map((m) => m.links)).toEqual([
        [`${BASE}/links/password-reset/second-secret`],
      ]);
      const lastTwo = await runCli(["admin", "mail", "--last", "2", "--json"], { env });
      expect(lastTwo.json<{ to: string }[]>().map((m) => m.to)).toEqual([
        "ann@example.com",
        "Sam@Example.com",
      ]);
      const nobody = await runCli(["admin", "mail", "--to", "nobody@example.com"], { env });
      expect(nobody.code).toBe(0);
      expect(nobody.stdout).toBe(`No mail to nobody@example.com in ${outbox}.\n`);
    },
  );

  it("shows a subject's raw control characters escaped, and keeps them in --json", SLOW, async () => {
    // Written by hand: composeEmail never lets one through, but the folder is only a folder.
    const raw = join(folder, "raw");
    await mkdir(raw);
    await writeFile(
      join(raw, "2026-12-02T00-00-00-000Z-x.json"),
      JSON.stringify({
        to: "eve@example.com\u001b]0;pwned\u0007",
        subject: "Hi \u001b[2J",
        text: "Open: http://127.0.0.1:3000/links/invitations/t0k\n",
        created_at: "2026-12-02T00:00:00.000Z",
      }),
    );
    const env = { MAIL_TRANSPORT: "file", MAIL_DIR: raw };
    const run = await runCli(["admin", "mail"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("to       eve@example.com\\x1b]0;pwned\\x07\n");
    expect(run.stdout).toContain("subject  Hi \\x1b[2J\n");
    expect(run.stdout).not.toContain("\u001b");
    const json = await runCli(["admin", "mail", "--json"], { env });
    expect(json.json<{ subject: string }[]>()[0]?.subject).toBe("Hi \u001b[2J");
  });

  it("skips what is not a message with a warning on stderr, never failing", SLOW, async () => {
    const mixed = join(folder, "mixed");
    await send(mixed, "2026-12-03T08:00:00.000Z", "kim@example.com", "Real one", {
      label: "Accept the invitation",
      url: `${BASE}/links/invitations/kim-secret`,
    });
    await writeFile(join(mixed, "2026-12-03T09-00-00-000Z-broken.json"), "{ not json");
    await writeFile(join(mixed, "2026-12-03T09-01-00-000Z-fields.json"), JSON.stringify({ to: 42 }));
    const huge = JSON.stringify({
      to: "a@b.c",
      subject: "s",
      text: "x".repeat(1_100_000),
      created_at: "2026-12-03T09:02:00Z",
    });
    await writeFile(join(mixed, "2026-12-03T09-02-00-000Z-huge.json"), huge);
    await mkdir(join(mixed, "2026-12-03T09-03-00-000Z-folder.json"));
    await symlink("/etc/passwd", join(mixed, "2026-12-03T09-04-00-000Z-link.json"));
    // Being written by the server: not a message yet, and no warning.
    await writeFile(join(mixed, "2026-12-03T09-05-00-000Z-next.json.tmp"), "{");
    const run = await runCli(["admin", "mail"], { env: { MAIL_DIR: mixed } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("to       kim@example.com\n");
    expect(run.stdout).toContain(`link     ${BASE}/links/invitations/kim-secret\n`);
    expect(run.stderr.split("\n").filter(Boolean)).toEqual([
      "warning: skipped 2026-12-03T09-00-00-000Z-broken.json: not JSON",
      "warning: skipped 2026-12-03T09-01-00-000Z-fields.json: not a message written by Allot (fields missing or wrong)",
      `warning: skipped 2026-12-03T09-02-00-000Z-huge.json: larger than 1000000 bytes (${huge.length})`,
      "warning: skipped 2026-12-03T09-03-00-000Z-folder.json: not a plain file",
      "warning: skipped 2026-12-03T09-04-00-000Z-link.json: not a plain file",
    ]);
    const json = await runCli(["admin", "mail", "--json"], { env: { MAIL_DIR: mixed } });
    expect(json.code).toBe(0);
    expect(json.json<{ to: string }[]>().map((m) => m.to)).toEqual(["kim@example.com"]);
  });

  it("says so plainly when there is no mail, and exits 0", SLOW, async () => {
    const empty = join(folder, "empty");
    await mkdir(empty);
    const none = await runCli(["admin", "mail"], { env: { MAIL_TRANSPORT: "file", MAIL_DIR: empty } });
    expect(none).toMatchObject({ code: 0, stderr: "", stdout: `No mail in ${empty}.\n` });
    const missing = join(folder, "never", "mail");
    const fresh = await runCli(["admin", "mail"], { env: { DATA_DIR: join(folder, "never") } });
    expect(fresh).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `No mail in ${missing} (the folder does not exist yet: no email was written).\n`,
    });
    const json = await runCli(["admin", "mail", "--json"], { env: { DATA_DIR: join(folder, "never") } });
    expect(json.code).toBe(0);
    expect(json.json()).toEqual([]);
  });

  it(
    "finds the folder as the server does: MAIL_DIR from where the command was typed, DATA_DIR/mail otherwise",
    SLOW,
    async () => {
      // Relative to INIT_CWD, as pnpm sets it: `pnpm cli` runs in apps/cli.
      const relative = await runCli(["admin", "mail", "--last", "1", "--json"], {
        env: { INIT_CWD: folder, MAIL_DIR: "data/mail" },
      });
      expect(relative.json<{ to: string }[]>().map((m) => m.to)).toEqual(["Sam@Example.com"]);
      const fromDataDir = await runCli(["admin", "mail", "--last", "1", "--json"], {
        env: { INIT_CWD: folder, DATA_DIR: "data" },
      });
      expect(fromDataDir.json<{ to: string }[]>().map((m) => m.to)).toEqual(["Sam@Example.com"]);
      // Another transport: the server writes no files (MAIL_DIR means nothing to it); what DATA_DIR/mail holds is shown, with a note.
      const smtp = await runCli(["admin", "mail", "--last", "1"], {
        env: { DATA_DIR: dataDir, MAIL_TRANSPORT: "smtp", MAIL_DIR: join(folder, "empty") },
      });
      expect(smtp.code).toBe(0);
      expect(smtp.stderr).toBe(
        `note: MAIL_TRANSPORT=smtp: the server does not write mail to files; showing what ${outbox} holds from before.\n`,
      );
      expect(smtp.stdout).toContain("to       Sam@Example.com\n");
    },
  );

  it("refuses a --last that is not a whole number from 1 to 10000 (exit 2)", SLOW, async () => {
    for (const value of ["0", "-1", "2.5", "ten", "10001"]) {
      const run = await runCli(["admin", "mail", "--last", value], { env: { DATA_DIR: dataDir } });
      expect(run.code, value).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("Give a whole number of messages from 1 to 10000.");
    }
  });
});
