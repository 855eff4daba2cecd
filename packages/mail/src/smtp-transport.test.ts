import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import type { EmailToSend } from "@allot/domain/email/outgoing-email";
import { afterEach, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../test/testing/self-signed-certificate";
import {
  type ReceivedMail,
  smtpRefusal,
  startTestSmtpServer,
  type TestSmtpServer,
} from "../test/testing/test-smtp-server";
import { smtpTransport } from "./smtp-transport";

const FROM = "Allot <noreply@allot.test>";

const message = (id = "0b9f5d7e-3f0c-4d3a-9a57-0c6e1f3f4a11"): EmailToSend => ({
  id,
  kind: "password_changed",
  to: "sam@example.com",
  subject: "Your password changed — 12,50 €",
  text: "Plain text, déjà vu.\nSecond line.",
  html: "<p>Rich <b>text</b>, déjà vu.</p>",
  createdAt: new Date("2026-11-25T10:00:00Z"),
});

describe("the smtp transport", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const server = async (options: Parameters<typeof startTestSmtpServer>[0]) => {
    const started = await startTestSmtpServer(options);
    cleanups.push(started.close);
    return started;
  };
  const transport = (settings: Parameters<typeof smtpTransport>[0]) => {
    const created = smtpTransport(settings);
    cleanups.push(created.close);
    return created;
  };
  /** The only message the server received, with the assertions every delivery shares. */
  const delivered = (smtp: TestSmtpServer) => {
    expect(smtp.received).toHaveLength(1);
    return smtp.received[0] as ReceivedMail;
  };
  const tls = selfSignedCertificate();

  it("delivers over plain SMTP: sender, recipient, subject, text and HTML as written", async () => {
    const smtp = await server({ disabledCommands: ["STARTTLS", "AUTH"], authOptional: true });
    await transport({ url: `smtp://127.0.0.1:${smtp.port}`, from: FROM }).send(message());

    const { mail, envelope, secure } = delivered(smtp);
    expect(secure).toBe(false);
    expect(envelope).toEqual({ from: "noreply@allot.test", to: ["sam@example.com"] });
    expect(mail.from?.value).toEqual([{ name: "Allot", address: "noreply@allot.test" }]);
    expect(mail.to).toMatchObject({ value: [{ address: "sam@example.com" }] });
    expect(mail.subject).toBe("Your password changed — 12,50 €");
    expect(mail.text?.trimEnd()).toBe("Plain text, déjà vu.\nSecond line.");
    expect(mail.html).toBe("<p>Rich <b>text</b>, déjà vu.</p>");
    // The outbox id names the message, so a repeat after a crash is recognisably the same one.
    expect(mail.messageId).toBe("<allot-email.0b9f5d7e-3f0c-4d3a-9a57-0c6e1f3f4a11@allot.test>");
  });

  it("upgrades with STARTTLS when the server offers it, trusting the certificate SMTP_TLS_CA names", async () => {
    // This server takes no message over a connection that is not encrypted.
    const smtp = await server({
      ...tls,
      authOptional: true,
      onMailFrom: (_address, session, callback) =>
        callback(session.secure ? null : smtpRefusal(530, "Must issue a STARTTLS command first")),
    });
    const url = `smtp://127.0.0.1:${smtp.port}`;
    // Without the certificate trusted, the upgrade fails: the server's identity is checked.
    await expect(transport({ url, from: FROM }).send(message())).rejects.toThrow(/certificate/i);
    expect(smtp.received).toEqual([]);

    await transport({ url, from: FROM, ca: tls.cert }).send(message());
    expect(delivered(smtp).secure).toBe(true);
  });

  it("refuses a server without STARTTLS when the URL asks for ?requireTLS=true", async () => {
    const smtp = await server({ disabledCommands: ["STARTTLS", "AUTH"], authOptional: true });
    await expect(
      transport({ url: `smtp://127.0.0.1:${smtp.port}?requireTLS=true`, from: FROM }).send(message()),
    ).rejects.toThrow(/STARTTLS/);
    expect(smtp.received).toEqual([]);
  });

  describe("authentication", () => {
    const PASSWORD = "s3cret p@ss:/%";
    const authServer = () =>
      server({
        ...tls,
        authMethods: ["PLAIN", "LOGIN"],
        onAuth: (auth, _session, callback) =>
          auth.username === "allot" && auth.password === PASSWORD
            ? callback(null, { user: "allot" })
            : // A careless server that echoes what it was given: the transport must still not repeat it.
              callback(smtpRefusal(535, `Bad credentials ${auth.username}:${auth.password}`)),
      });
    const urlWith = (password: string, port: number) =>
      `smtp://allot:${encodeURIComponent(password)}@127.0.0.1:${port}`;

    it("logs in with the user and (percent-encoded) password of the URL", async () => {
      const smtp = await authServer();
      await transport({ url: urlWith(PASSWORD, smtp.port), from: FROM, ca: tls.cert }).send(message());
      expect(delivered(smtp).user).toBe("allot");
    });

    it("rejects on a wrong password with an error that does not carry it, in any form", async () => {
      const smtp = await authServer();
      const wrong = "wr0ng+pa55/word";
      const error = await transport({ url: urlWith(wrong, smtp.port), from: FROM, ca: tls.cert })
        .send(message())
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(error).toBeInstanceOf(Error);
      const text = `${error?.message}\n${error?.stack}\n${JSON.stringify(error)}\n${String(error?.cause)}`;
      expect(error?.message).toMatch(/535/);
      expect(error?.message).toContain("Bad credentials allot:***");
      for (const form of [wrong, encodeURIComponent(wrong), Buffer.from(wrong).toString("base64")])
        expect(text).not.toContain(form);
      expect(smtp.received).toEqual([]);
    });
  });

  describe("a server that refuses", () => {
    it("rejects on a temporary refusal of the recipient (4xx), then delivers once it accepts", async () => {
      let refusals = 1;
      const smtp = await server({
        disabledCommands: ["STARTTLS", "AUTH"],
        authOptional: true,
        onRcptTo: (_address, _session, callback) =>
          callback(refusals-- > 0 ? smtpRefusal(451, "Try again later") : null),
      });
      const smtpSender = transport({ url: `smtp://127.0.0.1:${smtp.port}`, from: FROM });
      await expect(smtpSender.send(message())).rejects.toThrow(/451 Try again later/);
      await smtpSender.send(message());
      expect(delivered(smtp).mail.subject).toBe("Your password changed — 12,50 €");
    });

    it("rejects on a permanent refusal of the message (5xx)", async () => {
      const smtp = await server({
        disabledCommands: ["STARTTLS", "AUTH"],
        authOptional: true,
        onData: (stream, _session, callback) => {
          stream.resume();
          stream.on("end", () => callback(smtpRefusal(554, "Message rejected as spam")));
        },
      });
      await expect(
        transport({ url: `smtp://127.0.0.1:${smtp.port}`, from: FROM }).send(message()),
      ).rejects.toThrow(/554 Message rejected as spam/);
    });
  });

  describe("a server that is not there", () => {
    it("rejects at once when nothing listens on the port", async () => {
      const port = await freePort();
      const started = Date.now();
      await expect(
        transport({ url: `smtp://127.0.0.1:${port}`, from: FROM }).send(message()),
      ).rejects.toThrow(/ECONNREFUSED/);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it("rejects within the greeting timeout when a server says nothing, then pauses before trying it again", async () => {
      let connections = 0;
      const silent = await listening(
        createServer(() => {
          connections += 1;
        }),
      );
      const sender = transport({
        url: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        from: FROM,
        timeouts: { greetingMs: 300, pauseAfterServerFailureMs: 1_000 },
      });
      const started = Date.now();
      await expect(sender.send(message())).rejects.toThrow(/greeting/i);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(connections).toBe(1);

      // The rest of a batch fails at once, without a connection (and without another timeout).
      const next = Date.now();
      await expect(sender.send(message("b2"))).rejects.toThrow(/not tried again before/);
      expect(Date.now() - next).toBeLessThan(100);
      expect(connections).toBe(1);

      // After the pause, the server is tried again.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await expect(sender.send(message("c3"))).rejects.toThrow(/greeting/i);
      expect(connections).toBe(2);
    });

    it("rejects within the send timeout when a server never answers the message", async () => {
      const smtp = await server({
        disabledCommands: ["STARTTLS", "AUTH"],
        authOptional: true,
        // Takes the message and never replies: no socket timeout fires on a connection this quiet.
        onData: (stream) => stream.resume(),
      });
      const started = Date.now();
      await expect(
        transport({
          url: `smtp://127.0.0.1:${smtp.port}`,
          from: FROM,
          timeouts: { sendMs: 500, socketMs: 60_000 },
        }).send(message()),
      ).rejects.toThrow(/SMTP send failed/);
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });

  it("delivers over implicit TLS with smtps://", async () => {
    const smtp = await server({ ...tls, secure: true, authOptional: true });
    await transport({ url: `smtps://127.0.0.1:${smtp.port}`, from: FROM, ca: tls.cert }).send(message());
    const { mail, secure } = delivered(smtp);
    expect(secure).toBe(true);
    expect(mail.html).toBe("<p>Rich <b>text</b>, déjà vu.</p>");
  });

  async function listening(tcp: Server): Promise<Server> {
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      tcp.close();
    });
    return tcp;
  }

  /** A port nothing listens on: the OS hands one out, and it is closed again. */
  async function freePort(): Promise<number> {
    const tcp = createServer();
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    const { port } = tcp.address() as AddressInfo;
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    return port;
  }
});
