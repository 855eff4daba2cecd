import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/** One request the receiver got: headers as Node gives them (lower-case), the body as sent. */
export interface ReceivedWebhook {
  /** The request's path and query, e.g. `/hooks/a`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** How the receiver answers a request: a status (after a delay), or never (`hang`). */
export type Answer =
  | { status: number; body?: string; delayMs?: number; headers?: Record<string, string> }
  | "hang";

/**
 * A real HTTP server on loopback that records every request and answers as the test says (200 by
 * default): the endpoint of the webhook tests. Hanging requests are released when it closes.
 */
export function useWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let answer: (request: ReceivedWebhook) => Answer = () => ({ status: 200 });
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      received.push(request);
      for (const wake of waiters.splice(0)) wake();
      const reply = answer(request);
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      setTimeout(() => {
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "");
      }, reply.delayMs ?? 0);
    });
  });
  let url = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  return {
    /** The receiver's base URL (http://127.0.0.1:PORT); give each webhook its own path. */
    get url() {
      return url;
    },
    /** Every request so far, oldest first; those to `path` only when given. */
    received: (path?: string) => received.filter((r) => path === undefined || r.path === path),
    /** Answers from now on. */
    answerWith(next: (request: ReceivedWebhook) => Answer) {
      answer = next;
    },
    reset() {
      received.length = 0;
      answer = () => ({ status: 200 });
    },
    /** Waits until at least `count` requests have arrived (or `timeoutMs` passed: then throws). */
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`the receiver got ${received.length} of ${count} requests`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return [...received];
    },
    /** Releases the requests it holds (`hang`), closing their connections. */
    releaseHanging() {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
  };
}
