import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmailToSend } from "@allot/domain/email/outgoing-email";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resendTransport } from "./resend-transport";

/** A stand-in for api.resend.com on loopback: records requests, fails the first one. */
describe("the resend transport", () => {
  const received: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  let baseUrl: string;
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(text) });
      response.setHeader("content-type", "application/json");
      if (received.length === 1) {
        response.statusCode = 500;
        response.end(
          JSON.stringify({ name: "internal_server_error", message: "Try again", statusCode: 500 }),
        );
      } else response.end(JSON.stringify({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends text and HTML with the outbox id as idempotency key, and throws on an error answer", async () => {
    const transport = resendTransport("re_test_key", "Allot <noreply@allot.test>", baseUrl);
    const message: EmailToSend = {
      id: "0b9f5d7e-3f0c-4d3a-9a57-0c6e1f3f4a11",
      kind: "password_changed",
      to: "sam@example.com",
      subject: "Your password changed",
      text: "Plain",
      html: "<p>Rich</p>",
      createdAt: new Date(),
    };
    await expect(transport.send(message)).rejects.toThrow("Resend refused the message");
    await transport.send(message);
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.path).toBe("/emails");
      expect(request.headers.authorization).toBe("Bearer re_test_key");
      expect(request.headers["idempotency-key"]).toBe(`allot-email/${message.id}`);
      expect(request.body).toMatchObject({
        from: "Allot <noreply@allot.test>",
        to: "sam@example.com",
        subject: "Your password changed",
        text: "Plain",
        html: "<p>Rich</p>",
      });
    }
  });
});
