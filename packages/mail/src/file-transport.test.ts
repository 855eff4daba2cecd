import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmailToSend } from "@allot/domain/email/outgoing-email";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileTransport } from "./file-transport";

const message = (id: string, to = "file@example.com"): EmailToSend => ({
  id,
  createdAt: new Date("2026-11-25T10:00:00.123Z"),
  kind: "password_changed",
  to,
  subject: `Hello ${to}`,
  text: "Plain",
  html: "<p>Rich</p>",
});

describe("the file transport", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "allot-mail-"));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it("writes each message as one JSON file with the fields docs/spec/operations.md lists", async () => {
    await fileTransport(directory, "Allot <noreply@allot.test>").send(message("a1"));
    const [name, ...others] = await readdir(directory);
    expect(others).toEqual([]);
    expect(name).toBe("2026-11-25T10-00-00-123Z-a1.json");
    expect(JSON.parse(await readFile(join(directory, name as string), "utf8"))).toEqual({
      to: "file@example.com",
      from: "Allot <noreply@allot.test>",
      subject: "Hello file@example.com",
      text: "Plain",
      html: "<p>Rich</p>",
      kind: "password_changed",
      created_at: "2026-11-25T10:00:00.123Z",
    });
  });

  it("rewrites the same file when a message is sent again, leaving no temporary file", async () => {
    const transport = fileTransport(directory, "Allot <noreply@allot.test>");
    await transport.send(message("a1"));
    await transport.send(message("a1"));
    await transport.send(message("b2", "other@example.com"));
    expect((await readdir(directory)).sort()).toEqual([
      "2026-11-25T10-00-00-123Z-a1.json",
      "2026-11-25T10-00-00-123Z-b2.json",
    ]);
  });

  it("makes the folder 0700 and each message 0600: messages hold link secrets", async () => {
    const outbox = join(directory, "data", "mail");
    await fileTransport(outbox, "Allot <noreply@allot.test>").send(message("c3"));
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
    const [name] = await readdir(outbox);
    expect((await stat(join(outbox, name as string))).mode & 0o777).toBe(0o600);
  });
});
