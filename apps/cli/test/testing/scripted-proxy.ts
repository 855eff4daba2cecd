import { EventEmitter, once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/**
 * What the proxy does with one request: `pass` it to the server and its answer back; `cut` or
 * `hold` — pass it to the server, wait for its answer (a write has then committed), and lose that
 * answer: close the client's connection, or keep it waiting until the client is gone; or answer it
 * with a scripted response without passing it on.
 */
export type ProxyAction =
  | "pass"
  | "cut"
  | "hold"
  | { status: number; headers?: Record<string, string>; body: string };

export interface ProxiedRequest {
  method: string;
  /** With the query, as the client sent it (`/api/v1/budgets/?page=2`). */
  path: string;
  body: string;
  /** The request's Idempotency-Key, if any. */
  key: string | undefined;
  /** The answer's status, the server's or the scripted one. */
  status: number;
  /** The server's `Idempotent-Replayed: true`. */
  replayed: boolean;
  action: Exclude<ProxyAction, object> | "scripted";
}

/**
 * A proxy in front of the real test server, for what a real server cannot be made to do on cue:
 * throttle one request, or commit a write and have its answer never reach the CLI. `script` decides
 * per request (everything passes by default); `seen` lists what went through; `lost()` resolves once
 * the server answered a request whose answer is then cut or held.
 */
export function useScriptedProxy(target: () => string) {
  let server: Server;
  const events = new EventEmitter();
  const state = {
    url: "",
    script: (_request: { method: string; path: string; body: string }): ProxyAction => "pass",
    seen: [] as ProxiedRequest[],
    /** The next request whose answer is lost, once the server has answered it. */
    lost: async () => (await once(events, "lost"))[0] as ProxiedRequest,
  };

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const path = request.url ?? "/";
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const method = request.method ?? "";
      const action = state.script({ method, path, body });
      const key = request.headers["idempotency-key"] as string | undefined;
      if (typeof action === "object") {
        state.seen.push({
          method,
          path,
          body,
          key,
          status: action.status,
          replayed: false,
          action: "scripted",
        });
        response.writeHead(action.status, { "content-type": "application/json", ...action.headers });
        response.end(action.body);
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name]) => !["host", "connection", "content-length"].includes(name),
        ),
      ) as Record<string, string>;
      const answer = await fetch(`${target()}${path}`, {
        method,
        headers,
        // The bytes as sent: a multipart upload's files are not text.
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const answerBody = Buffer.from(await answer.arrayBuffer());
      const seen: ProxiedRequest = {
        method,
        path,
        body,
        key,
        status: answer.status,
        replayed: answer.headers.get("idempotent-replayed") === "true",
        action,
      };
      state.seen.push(seen);
      if (action === "pass") {
        response.writeHead(answer.status, {
          "content-type": answer.headers.get("content-type") ?? "application/json",
        });
        response.end(answerBody);
        return;
      }
      if (action === "cut") request.socket.destroy();
      events.emit("lost", seen);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // Held answers keep their connections open: close them with the proxy.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    state.script = () => "pass";
    state.seen = [];
  });
  return state;
}
