import { randomBytes } from "node:crypto";
import { testEngines } from "@allot/db/testing/test-databases";
import { describe, expect, it } from "vitest";
import { startApiProcess } from "../../test/faults/api-process";
import { useFaultRun } from "../../test/faults/use-fault-run";

const secret = (label: string) => `${label}${randomBytes(12).toString("hex")}`;

/**
 * What the real server prints at LOG_LEVEL=info (JSON: its stdout is a pipe): one line a request,
 * no credential, and a line on shutdown.
 */
describe.each(testEngines())("the server's request log (%s)", (engine) => {
  const run = useFaultRun(engine);

  it("masks tokens in paths and never prints Authorization, cookies or bodies", async () => {
    const store = await run.store();
    const api = await startApiProcess({ ...store.env, LOG_LEVEL: "info" });
    run.defer(() => api.kill());

    const secrets = {
      resetPage: secret("rp"),
      resetPagePost: secret("rq"),
      resetConfirm: secret("rc"),
      invitation: secret("iv"),
      invitationAccept: secret("ia"),
      emailChangePage: secret("ec"),
      emailChangeRevoke: secret("er"),
      bearer: secret("bearer"),
      apiKey: secret("apikey"),
      cookie: secret("cookie"),
      password: secret("password"),
    };
    const call = (path: string, init: RequestInit = {}) => fetch(`${api.base}${path}`, init);
    const json = (body: unknown, headers: Record<string, string> = {}) => ({
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

    await call(`/links/password-reset/${secrets.resetPage}`);
    // The page acts through the JSON endpoint (an inner request, logged too).
    await call(`/links/password-reset/${secrets.resetPagePost}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: secrets.password, password_again: secrets.password }).toString(),
    });
    await call(
      `/api/v1/password-reset/${secrets.resetConfirm}/confirm/`,
      json({ password: secrets.password }),
    );
    await call(`/api/v1/invitations/${secrets.invitation}/`);
    await call(`/api/v1/invitations/${secrets.invitationAccept}/accept/`, json({}));
    await call(`/links/email-change/${secrets.emailChangePage}/confirm`);
    await call(`/api/v1/users/me/change-email/${secrets.emailChangeRevoke}/revoke/`, json({}));
    await call("/api/v1/users/me/", {
      headers: { authorization: `Bearer ${secrets.bearer}`, cookie: `refresh_token=${secrets.cookie}` },
    });
    await call("/api/v1/users/me/", { headers: { authorization: `Api-Key allot_${secrets.apiKey}` } });
    await call("/api/token/refresh/", {
      method: "POST",
      headers: { cookie: `refresh_token=${secrets.cookie}` },
    });
    await call("/api/token/", json({ email: "nobody@example.com", password: secrets.password }));
    await call("/api/v1/users/me/?page=2", { headers: { "x-request-id": "one-line-check" } });

    expect(await api.stop()).toBe(0);
    const output = api.output();
    const logged = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The requests were logged (so the absence below means something), tokens masked.
    const lines = logged.filter((line) => line.msg === "request completed");
    expect(lines.length, output).toBeGreaterThanOrEqual(13);
    expect(output).not.toContain("incoming request");
    // One line a request, on its answer, with all it needs.
    expect(logged.filter((line) => line.reqId === "one-line-check")).toEqual([
      {
        level: "info",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        pid: expect.any(Number),
        hostname: expect.any(String),
        reqId: "one-line-check",
        method: "GET",
        url: "/api/v1/users/me/?page=2",
        statusCode: 401,
        responseTime: expect.any(Number),
        remoteAddress: "127.0.0.1",
        msg: "request completed",
      },
    ]);
    // The stop is logged: the signal, then the end.
    expect(logged.slice(-2)).toEqual([
      expect.objectContaining({
        level: "info",
        signal: "SIGTERM",
        msg: expect.stringContaining("SIGTERM received"),
      }),
      expect.objectContaining({ level: "info", msg: "stopped" }),
    ]);
    expect(output).toContain('"url":"/links/password-reset/[masked]"');
    expect(output).toContain('"url":"/api/v1/password-reset/[masked]/confirm/"');
    expect(output).toContain('"url":"/api/v1/invitations/[masked]/accept/"');
    expect(output).toContain('"url":"/api/v1/users/me/change-email/[masked]/revoke/"');
    for (const [name, value] of Object.entries(secrets)) expect(output, name).not.toContain(value);
  }, 240_000);
});
