import type { SeededAccount } from "./fault-seed";

/**
 * Small acknowledged writes beside the big one: transfers of 1.00 back and forth between an
 * account's Unallocated budget and one of its budgets, one after another, until the process dies.
 * `acknowledged` holds the id of every transfer answered 201: each must survive the kill.
 */
export function startTransferStream(base: string, token: string, account: SeededAccount) {
  const budget = account.budgetIds[0];
  if (!budget) throw new Error("the stream's account needs a budget");
  const acknowledged: string[] = [];
  const refused: string[] = [];
  let stopped = false;
  let sent = 0;
  const done = (async () => {
    while (!stopped) {
      const forth = sent % 2 === 0;
      sent += 1;
      let response: Response;
      try {
        response = await fetch(`${base}/api/v1/internal-transactions/`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            bank_account: account.id,
            amount: "1.00",
            src_budget: forth ? account.unallocatedId : budget,
            dst_budget: forth ? budget : account.unallocatedId,
          }),
        });
      } catch {
        return; // the process is gone: this last transfer was never acknowledged
      }
      const body = await response.text().catch(() => "");
      if (response.status === 201) acknowledged.push((JSON.parse(body) as { id: string }).id);
      else refused.push(`${response.status} ${body.slice(0, 200)}`);
    }
  })();
  return {
    acknowledged,
    refused,
    /** Resolves once `count` transfers were acknowledged (or the stream ended). */
    async acknowledgedAtLeast(count: number) {
      while (acknowledged.length < count && !stopped && refused.length === 0)
        await Promise.race([done, new Promise((r) => setTimeout(r, 10))]);
    },
    /** Ends the stream (if the process still runs) and waits for its last request. */
    async stop() {
      stopped = true;
      await done;
    },
    done,
  };
}

/** A session for the seeded owner (tokens outlive a restart: same secret, session stored). */
export async function login(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/token/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access: string }).access;
}

/** One JSON request under /api/v1, body parsed. */
export async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests check bodies field by field.
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
}
