import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { testEngines } from "@allot/db/testing/test-databases";
import { createAccessTokens } from "@allot/domain/auth/access-tokens";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig, useTestApp } from "../../test/testing/test-app";
import { buildApp } from "../app";
import { requestLogOptions } from "./request-log";

/** One request written as is on a socket (fetch and URL would resolve dot segments); its status. */
function rawRequest(port: number, method: string, path: string, body = ""): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    const headers = [`${method} ${path} HTTP/1.1`, "Host: allot.test", "Connection: close"];
    if (body) headers.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
    // Not half-closed: the server closes after its answer (Connection: close).
    socket.write(`${headers.join("\r\n")}\r\n\r\n${body}`);
  });
}

// Every way a client can spell a token route's path that a server or proxy may read as the route.
const spellings = (token: string) => [
  `/api/v1/password%2Dreset/${token}/confirm/`,
  `/api/v1/password%2dreset/${token}/confirm/`,
  `/api/v1/password-reset%2F${token}%2Fconfirm/`,
  `/api/v1/password-reset%2f${token}/confirm/`,
  `/api/v1/password%252Dreset/${token}/confirm/`,
  `/api/v1/password%25252Dreset/${token}/confirm/`,
  `/api/v1/%70assword-reset/${token}/confirm/`,
  `/api/v1/%70%61%73%73%77%6F%72%64%2D%72%65%73%65%74/${token}/confirm/`,
  `/api/%76%31/password-reset/${token}/confirm/`,
  `/%61pi/v1/password-reset/${token}/confirm/`,
  `/api/v1/PASSWORD-RESET/${token}/confirm/`,
  `/api/v1/x/../password-reset/${token}/confirm/`,
  `/api/v1/x/%2E%2E/password-reset/${token}/confirm/`,
  `/api/v1/password-reset/./${token}/confirm/`,
  `/api/v1/password-reset//${token}/confirm/`,
  `//api/v1/password-reset/${token}/confirm/`,
  `/api/v1/password-reset/${token}%2Fconfirm/`,
  `/api/v1/password-reset/${token}?next=1`,
  `/api/v1/invitations/${token}/accept/`,
  `/api/v1/invit%61tions/${token}/accept/`,
  `/api/v1/invitations%2F${token}/decline/`,
  `/api/v1/invitations/${token}/`,
  `/api/v1/users/me/change-email/${token}/revoke/`,
  `/api/v1/users/me/change%2Demail/${token}/revoke/`,
  `/api/v1/users/me/%63hange-email/${token}/confirm/`,
  `/api/v1/bank-accounts/0b7c/invit%61tions/${token}/cancel/`,
  `/links/password%2Dreset/${token}`,
  `/links/password-reset%2F${token}`,
  `/%6Cinks/password-reset/${token}`,
  `/links%2Fpassword-reset%2F${token}`,
  `/LINKS/password-reset/${token}`,
  `/links/x/../password-reset/${token}`,
  `/links/email-change/${token}/confirm`,
  `/links/email%2Dchange/${token}/revoke`,
  `/links/invit%61tions/${token}`,
];

/*
 * No request log line holds a token, however its path is spelled: each spelling is sent on a real
 * socket, as GET and POST, to the server with its production logger, and every line is searched.
 */
describe.each(testEngines())("token paths in the request log, however encoded (%s)", (engine) => {
  const t = useTestApp(engine);
  const lines: string[] = [];
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    const config = testConfig();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    app = await buildApp(
      { db: t.db, tokens: createAccessTokens(config.jwtSecret), config, attachments: t.attachments.store },
      { logger: { ...(requestLogOptions("info") as object), stream } },
    );
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("masks the token of every spelling, on every answer (200, 400, 404 alike)", async () => {
    const leaks: string[] = [];
    for (const method of ["GET", "POST"]) {
      const tokens = spellings("x").map(() => `tok${randomBytes(16).toString("hex")}`);
      const paths = spellings("x").map((_, i) => spellings(tokens[i] as string)[i] as string);
      for (const [i, path] of paths.entries()) {
        const before = lines.length;
        const status = await rawRequest(port, method, path, method === "POST" ? '{"new_password":"x"}' : "");
        expect(status, path).toBeGreaterThan(0);
        const logged = lines.slice(before).join("\n");
        expect(logged, path).toContain("request completed");
        if (logged.includes(tokens[i] as string)) leaks.push(`${method} ${path} (${status})`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
