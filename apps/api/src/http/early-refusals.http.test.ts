import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import { sendWhileRefused } from "../../test/testing/refused-exchange";
import { useTestApp } from "../../test/testing/test-app";
import { LINGER_MS } from "./early-refusals";

const MB = 1024 * 1024;

const head = (method: string, path: string, type: string) =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${type}`;

describe.each(testEngines())("early refusals on kept-alive connections (%s)", (engine) => {
  const t = useTestApp(engine);
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
  });

  const refusals = [
    ["an anonymous caller of a protected route", "POST", "/api/v1/bank-accounts/", "application/json", 401],
    ["a body over the limit, on a public route", "POST", "/api/v1/password-reset/", "application/json", 413],
    ["an unsupported content type, on a public route", "POST", "/api/v1/password-reset/", "text/plain", 400],
    [
      "an unsupported content type, on a link page",
      "POST",
      "/links/password-reset/some-token",
      "text/plain",
      400,
    ],
    ["an unknown API path", "POST", "/api/v1/no-such-thing/", "application/json", 404],
  ] as const;

  for (const [what, method, path, type, status] of refusals) {
    it(`answers ${what} (${status}), closes, and reads no more than a bounded part of a 1 GB body`, async () => {
      const started = Date.now();
      const exchange = await sendWhileRefused(port, head(method, path, type), {
        declared: 1024 * MB,
        maxSend: 256 * MB,
      });
      expect(exchange.errorBeforeAnswer).toBeNull();
      expect(exchange.status, exchange.answer.slice(0, 300)).toBe(status);
      expect(exchange.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.closed).toBe(true);
      expect(Date.now() - started).toBeLessThan(LINGER_MS + 3_000);
      // Kernel buffers on both sides hold a few MB; the server itself reads at most 1 MB more.
      expect(exchange.sent).toBeLessThan(48 * MB);
    });
  }

  it("lets a client that writes its whole body before reading read its 413, never a reset", async () => {
    // A simple client: sends all 6 MB (its field is over the 1 MB bound after the first), then reads.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const socket = connect(port, "127.0.0.1");
      await once(socket, "connect");
      socket.pause();
      let error: string | null = null;
      socket.on("error", (e: NodeJS.ErrnoException) => {
        error ??= e.code ?? e.message;
      });
      const preamble = '--b\r\ncontent-disposition: form-data; name="f"\r\n\r\n';
      const body = Buffer.concat([Buffer.from(preamble), Buffer.alloc(6 * MB, "x")]);
      socket.write(
        `${head("POST", "/api/v1/password-reset/", "multipart/form-data; boundary=b")}\r\ncontent-length: ${body.length + 7}\r\n\r\n`,
      );
      await new Promise<void>((resolve) => socket.write(body, () => resolve()));
      // Everything written (taken by the kernels): now it reads.
      await new Promise((resolve) => setTimeout(resolve, 200));
      let answer = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => {
        answer += chunk;
      });
      socket.resume();
      await Promise.race([
        once(socket, "close"),
        new Promise((resolve) => setTimeout(resolve, LINGER_MS + 2_000)),
      ]);
      socket.destroy();
      expect(error, `attempt ${attempt}: ${answer.slice(0, 100)}`).toBeNull();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    }
  });

  it("keeps the connection of a request whose body was read whole", async () => {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    let answers = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      answers += chunk;
    });
    const body = JSON.stringify({ email: "nobody@example.org" });
    const request = `${head("POST", "/api/v1/password-reset/", "application/json")}\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    socket.write(request);
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(request);
    for (let waited = 0; (answers.match(/^HTTP\/1\.1 /gm) ?? []).length < 2 && waited < 5_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect(answers.match(/^HTTP\/1\.1 204 /gm)).toHaveLength(2);
    expect(answers).not.toMatch(/connection: close/i);
  });
});
