import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** One request as the receiver got it: when its headers arrived (performance.now() and epoch ms). */
export interface Arrival {
  path: string;
  at: number;
  epochMs: number;
  headers: { id: string; timestamp: string; signature: string };
  body: string;
}

export interface WebhookReceiver {
  url: string;
  arrivals: Arrival[];
  /** Resolves once `count` requests to `path` have arrived, or rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback (node:http, answering 204 as soon as the body is in), as a
 * customer's endpoint would be: it keeps what arrived and checks nothing while the sender runs, so
 * it costs the machine little; the signatures are checked afterwards (`badSignatures`).
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals: Arrival[] = [];
  const server = createServer((request, response) => {
    const at = performance.now();
    const epochMs = performance.timeOrigin + at;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      arrivals.push({
        path: request.url ?? "",
        at,
        epochMs,
        headers: headersOf(request),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(204).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    async waitFor(path, count, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      const arrived = () => arrivals.filter((a) => a.path === path).length;
      while (arrived() < count) {
        if (performance.now() > deadline)
          throw new Error(
            `${path}: ${arrived()} of ${count} deliveries arrived within ${timeoutMs / 1000} s`,
          );
        await sleep(20);
      }
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

function headersOf(request: IncomingMessage): Arrival["headers"] {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === "string" ? value : "";
  };
  return {
    id: header("webhook-id"),
    timestamp: header("webhook-timestamp"),
    signature: header("webhook-signature"),
  };
}

/**
 * The arrivals whose `webhook-signature` holds no valid `v1,` signature by `secret` (Standard
 * Webhooks: base64 of HMAC-SHA256 with the secret's bytes over `{id}.{timestamp}.{body}`).
 */
export function badSignatures(arrivals: Arrival[], secret: string): Arrival[] {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return arrivals.filter(({ headers, body }) => {
    const expected = createHmac("sha256", key).update(`${headers.id}.${headers.timestamp}.${body}`).digest();
    return !headers.signature.split(" ").some((signature) => {
      const [version, value] = signature.split(",");
      const sent = Buffer.from(value ?? "", "base64");
      return version === "v1" && sent.length === expected.length && timingSafeEqual(sent, expected);
    });
  });
}
