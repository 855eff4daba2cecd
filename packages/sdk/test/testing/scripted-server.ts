import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/*
 * A local HTTP server that answers what a test scripts, misbehaving on purpose where told: the
 * cases a real server cannot be made to produce (an HTML 502, an hour-long Retry-After, a socket
 * destroyed before any answer).
 */

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Destroy the socket instead of answering (a connection reset). */
  destroy?: boolean;
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers in order from `script`, or from `respond` when a test sets it (for concurrent calls). */
export function useScriptedServer() {
  let server: Server;
  const state = {
    baseUrl: "",
    script: [] as Scripted[],
    respond: null as ((request: Seen) => Scripted | Promise<Scripted>) | null,
    seen: [] as Seen[],
  };

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      const seen = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body };
      state.seen.push(seen);
      const next = state.respond
        ? await state.respond(seen)
        : (state.script.shift() ?? { status: 500, body: "script exhausted" });
      if (next.destroy) {
        request.socket.destroy();
        return;
      }
      response.writeHead(next.status, { "content-type": "application/json", ...next.headers });
      response.end(next.body);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    state.script = [];
    state.respond = null;
    state.seen = [];
  });
  return state;
}

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Scripted => ({
  status,
  headers,
  body: JSON.stringify(value),
});
