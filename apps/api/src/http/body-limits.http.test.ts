import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { testEngines } from "@allot/db/testing/test-databases";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/testing/test-app";

const BOUNDARY = "----allot-limits";
const MB = 1024 * 1024;
const TOO_LARGE = { detail: expect.any(String), code: "request_too_large" };

const fieldPart = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, bytes: number) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\n` +
  `Content-Type: application/octet-stream\r\n\r\n${"x".repeat(bytes)}\r\n`;
const multipart = (...parts: string[]) => ({
  headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
  payload: `${parts.join("")}--${BOUNDARY}--\r\n`,
});

interface Answer {
  status: number;
  body: string;
  /** Body bytes the client had written when the answer came (or the connection closed). */
  sent: number;
}

/**
 * A request over a raw socket: the head, then `body` (a generator of chunks) sent chunked as fast
 * as the server reads it, until the server answers or closes ("head only": no body, not even its
 * end, so only a server that does not wait for it can answer). `app.inject` cannot show this: it
 * hands the server the whole body at once.
 */
async function streamRequest(
  port: number,
  head: string,
  body: (() => Generator<Buffer | string>) | "head only",
  timeoutMs = 20_000,
): Promise<Answer> {
  const socket: Socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let response = "";
  let sent = 0;
  let finished = false;
  const answered = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      finished = true;
      resolve();
    };
    socket.on("data", (chunk) => {
      response += chunk;
      const end = response.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(response.slice(0, end));
      if (end >= 0 && length && response.length >= end + 4 + Number(length[1])) settle();
    });
    socket.on("close", settle);
    socket.on("error", () => undefined); // EPIPE/ECONNRESET once the server has closed: expected
  });
  socket.write(`${head}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n`);
  for (const chunk of body === "head only" ? [] : body()) {
    if (finished || socket.destroyed) break;
    sent += chunk.length;
    socket.write(`${chunk.length.toString(16)}\r\n`);
    socket.write(chunk);
    // `once` rejects on the socket's error, and EPIPE here only means the server answered and closed.
    if (!socket.write("\r\n")) await Promise.race([once(socket, "drain").catch(() => undefined), answered]);
  }
  if (body !== "head only" && !finished && !socket.destroyed) socket.write("0\r\n\r\n");
  await answered;
  socket.destroy();
  const [statusLine = "", ...rest] = response.split("\r\n");
  return {
    status: Number(statusLine.split(" ")[1]),
    body: rest.join("\r\n").split("\r\n\r\n").slice(1).join("\r\n\r\n"),
    sent,
  };
}

/** The largest growth of this process's resident memory while `work` runs (the server is in it). */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

/** 100 MB of multipart parts of `kind`, each 4 MB (under any per-part bound), in 64 KB chunks. */
function* hundredMegabytesOf(kind: "file" | "field") {
  const chunk = Buffer.alloc(64 * 1024, "x");
  for (let part = 0; part < 25; part++) {
    yield kind === "file"
      ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${part}"; filename="f.bin"\r\n\r\n`
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${part}"\r\n\r\n`;
    for (let i = 0; i < (4 * MB) / chunk.length; i++) yield chunk;
    yield "\r\n";
  }
  yield `--${BOUNDARY}--\r\n`;
}

describe.each(testEngines())("request body bounds (%s)", (engine) => {
  const t = useTestApp(engine);
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as { port: number }).port;
  });

  const resetRequest = (...parts: string[]) =>
    t.inject({ method: "POST", url: "/api/v1/password-reset/", ...multipart(...parts) });

  describe("multipart, through inject", () => {
    it("refuses a body over 5 MB in all, though no part is over any per-part bound", async () => {
      const parts = Array.from({ length: 12 }, (_, i) => fieldPart(`f${i}`, "x".repeat(MB / 2)));
      const response = await resetRequest(fieldPart("email", "someone@example.com"), ...parts);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual(TOO_LARGE);
    });

    it("refuses too many parts and too large a field with 413, never truncating", async () => {
      const many = Array.from({ length: 1001 }, (_, i) => fieldPart(`f${i}`, "1"));
      expect((await resetRequest(...many)).json()).toEqual(TOO_LARGE);
      const huge = await resetRequest(fieldPart("email", `${"a".repeat(MB + 10)}@example.com`));
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toEqual(TOO_LARGE);
      const longName = await resetRequest(fieldPart("n".repeat(300), "1"));
      expect(longName.statusCode).toBe(413);
    });

    it("refuses file parts where the route takes none", async () => {
      const response = await resetRequest(fieldPart("email", "someone@example.com"), filePart("receipt", 10));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: expect.stringMatching(/file/), code: "file_not_accepted" });
    });

    it("still reads a proper multipart form, and an empty one", async () => {
      const response = await resetRequest(fieldPart("email", "nobody@example.com"));
      expect(response.statusCode).toBe(204);
      const empty = await t.inject({
        method: "POST",
        url: "/api/v1/password-reset/",
        headers: multipart().headers,
        payload: "",
      });
      expect(empty.statusCode).toBe(400);
      expect(Object.keys(empty.json())).toEqual(["email"]);
    });
  });

  describe("streamed to a listening server", () => {
    const head = (path: string, type = `multipart/form-data; boundary=${BOUNDARY}`) =>
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${type}`;

    it("answers 413 to a declared 100 MB multipart body before a byte of it is sent", async () => {
      const socket = connect(port, "127.0.0.1");
      await once(socket, "connect");
      socket.write(`${head("/api/v1/password-reset/")}\r\ncontent-length: ${100 * MB}\r\n\r\n`);
      const [first] = (await Promise.race([
        once(socket, "data"),
        new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), 10_000)),
      ])) as [Buffer];
      socket.destroy();
      expect(String(first)).toMatch(/^HTTP\/1\.1 413 /);
    });

    for (const kind of ["field", "file"] as const) {
      it(`answers a 100 MB chunked body of ${kind} parts with a 4xx, reading a few MB at most`, async () => {
        const { result, growth } = await peakGrowth(() =>
          streamRequest(port, head("/api/v1/password-reset/"), () => hundredMegabytesOf(kind)),
        );
        expect(result.status, result.body).toBe(kind === "file" ? 400 : 413);
        expect(JSON.parse(result.body).code).toBe(
          kind === "file" ? "file_not_accepted" : "request_too_large",
        );
        // The old parser kept every part in memory: 100 MB in, well over a gigabyte of growth.
        expect(growth).toBeLessThan(24 * MB);
        expect(result.sent).toBeLessThan(100 * MB);
      });
    }

    it("refuses an anonymous caller of a protected route with 401 before reading its body", async () => {
      // Only the head is sent: an answer proves the server did not wait for the body.
      for (const type of [`multipart/form-data; boundary=${BOUNDARY}`, "application/json"]) {
        const answer = await streamRequest(port, head("/api/v1/bank-accounts/", type), "head only", 10_000);
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.body)).toEqual({ detail: expect.any(String), code: "not_authenticated" });
      }
      const { result, growth } = await peakGrowth(() =>
        streamRequest(port, head("/api/v1/bank-accounts/"), () => hundredMegabytesOf("field")),
      );
      expect(result.status).toBe(401);
      expect(growth).toBeLessThan(24 * MB);
    });
  });
});
