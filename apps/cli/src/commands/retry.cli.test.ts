import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { testEngines } from "@allot/db/testing/test-databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCliServer } from "../testing/cli-server";
import { runCli } from "../testing/run-cli";

/**
 * A throttled API, seen from the real CLI: a proxy in front of the real server answers the first
 * request for the budgets list with 429 and `Retry-After: 1`, then lets everything through. The
 * command must wait, retry and succeed.
 */
describe.each(testEngines())("the CLI under a 429 (%s)", (engine) => {
  const server = useCliServer(engine);
  const seen: { method: string; path: string; status: number }[] = [];
  let proxy: Server;
  let proxyUrl: string;

  beforeAll(async () => {
    let throttled = false;
    proxy = createServer(async (request, response) => {
      const path = request.url ?? "/";
      if (!throttled && path.startsWith("/api/v1/budgets/")) {
        throttled = true;
        seen.push({ method: request.method ?? "", path, status: 429 });
        response.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
        response.end(JSON.stringify({ detail: "Request was throttled.", code: "throttled" }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name]) => !["host", "connection", "content-length"].includes(name),
        ),
      ) as Record<string, string>;
      const answer = await fetch(`${server.baseUrl}${path}`, {
        method: request.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      seen.push({ method: request.method ?? "", path, status: answer.status });
      const body = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "application/json",
      });
      response.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it("waits for Retry-After, retries the request and prints the list", async () => {
    const user = await server.apiKeyUser();
    const bank = await server.bank();
    await user.client.bankAccounts.create({ name: "Checking", bank: bank.id });
    const key = (await server.t.apiKey(user.user)).replace(/^Api-Key /, "");

    const started = Date.now();
    const run = await runCli(["budgets", "list", "--json"], {
      env: { ALLOT_API_KEY: key, ALLOT_URL: proxyUrl, ALLOT_CONFIG: `/tmp/allot-retry-${Date.now()}.json` },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<{ name: string }[]>().map((budget) => budget.name)).toEqual(["Unallocated"]);
    const budgetCalls = seen.filter((call) => call.path.startsWith("/api/v1/budgets/"));
    expect(budgetCalls.map((call) => call.status)).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  }, 300_000);
});
