import { randomUUID } from "node:crypto";
import { authRoutes } from "@allot/contract/auth/routes";
import { budgetRoutes } from "@allot/contract/budgets/routes";
import { internalTransactionRoutes } from "@allot/contract/internal-transactions/routes";
import { idempotencyKeys } from "@allot/db/schema/idempotency-keys";
import { testEngines } from "@allot/db/testing/test-databases";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aBudget, anAccount } from "../../test/testing/fixtures";
import { type TestUser, useTestApp } from "../../test/testing/test-app";

describe.each(testEngines())("Idempotency-Key (%s)", (engine) => {
  const t = useTestApp(engine);

  /** An owner with an account and a budget, and a transfer of `amount` into it, keyed or not. */
  async function world() {
    const owner = await t.user();
    const account = await anAccount(t, owner);
    const budget = await aBudget(t, owner, account, { name: "Groceries" });
    const unallocated = String((account as { unallocated_budget: string }).unallocated_budget);
    const transfer = (amount: string, headers: Record<string, string> = {}, who: TestUser = owner) =>
      t
        .as(who)
        .call(
          internalTransactionRoutes.create,
          { bank_account: account.id, amount, src_budget: unallocated, dst_budget: budget.id },
          { headers },
        );
    const balance = async () => (await t.as(owner).call(budgetRoutes.get, { id: budget.id })).json().balance;
    return { owner, account, budget, transfer, balance };
  }

  it("runs a keyed write once: a repeat answers the recorded status and body, replayed, and moves nothing", async () => {
    const { transfer, balance } = await world();
    const key = randomUUID();
    const first = await transfer("50.00", { "idempotency-key": key });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await transfer("50.00", { "idempotency-key": key });
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await balance()).toBe("50.00");
    // Without a key the same request is a new transfer, as before.
    expect((await transfer("50.00")).statusCode).toBe(201);
    expect(await balance()).toBe("100.00");
  });

  it("refuses the key for another request (422), a malformed key (400 on the header), and runs nothing", async () => {
    const { transfer, balance } = await world();
    const key = randomUUID();
    expect((await transfer("10.00", { "idempotency-key": key })).statusCode).toBe(201);
    const reused = await transfer("11.00", { "idempotency-key": key });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({
      detail:
        "This Idempotency-Key was used for another request (method, path or body); use a new key for a new request.",
      code: "idempotency_key_reused",
    });
    for (const bad of ["has space", "x".repeat(256), "é"]) {
      const response = await transfer("12.00", { "idempotency-key": bad });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json()).toEqual({
        "Idempotency-Key": ["Send one key of 1 to 255 printable ASCII characters (no spaces), e.g. a UUID."],
      });
    }
    expect(await balance()).toBe("10.00");
  });

  it("records nothing for a failed request: the same key may be sent again", async () => {
    const { owner, account, transfer, balance } = await world();
    const key = randomUUID();
    // A budget that does not exist: 400, and the key stays free.
    const refused = await t
      .as(owner)
      .call(
        internalTransactionRoutes.create,
        { bank_account: account.id, amount: "5.00", src_budget: randomUUID(), dst_budget: randomUUID() },
        { headers: { "idempotency-key": key } },
      );
    expect(refused.statusCode, refused.body).toBe(400);
    const fixed = await transfer("5.00", { "idempotency-key": key });
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(fixed.headers["idempotent-replayed"]).toBeUndefined();
    expect(await balance()).toBe("5.00");
  });

  it("keeps keys apart per user, replays a form-encoded repeat of a JSON body, and a 204", async () => {
    const { owner, account, budget, transfer } = await world();
    const key = randomUUID();
    expect((await transfer("1.00", { "idempotency-key": key })).statusCode).toBe(201);
    // The same body form-encoded is the same request.
    const unallocated = String((account as { unallocated_budget: string }).unallocated_budget);
    const form = await t.inject({
      method: "POST",
      url: "/api/v1/internal-transactions/",
      headers: {
        authorization: owner.bearer,
        "idempotency-key": key,
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({
        bank_account: account.id,
        amount: "1.00",
        src_budget: unallocated,
        dst_budget: budget.id,
      }).toString(),
    });
    expect(form.statusCode, form.body).toBe(201);
    expect(form.headers["idempotent-replayed"]).toBe("true");
    // Another user's identical key is theirs alone (their request is refused on its own merits).
    const stranger = await t.user();
    const theirs = await transfer("1.00", { "idempotency-key": key }, stranger);
    expect(theirs.statusCode).toBe(400);

    const spare = await aBudget(t, owner, account, { name: "Spare" });
    const deleteKey = randomUUID();
    const deleted = await t
      .as(owner)
      .call(budgetRoutes.delete, { id: spare.id }, { headers: { "idempotency-key": deleteKey } });
    expect(deleted.statusCode).toBe(204);
    const replayed = await t
      .as(owner)
      .call(budgetRoutes.delete, { id: spare.id }, { headers: { "idempotency-key": deleteKey } });
    expect(replayed.statusCode).toBe(204);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.body).toBe("");
  });

  it("forgets a key after its TTL, and public endpoints ignore the header", async () => {
    const { owner, transfer, balance } = await world();
    const key = randomUUID();
    expect((await transfer("2.00", { "idempotency-key": key })).statusCode).toBe(201);
    await t.db
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(idempotencyKeys.key, key));
    const afterTtl = await transfer("2.00", { "idempotency-key": key });
    expect(afterTtl.statusCode).toBe(201);
    expect(afterTtl.headers["idempotent-replayed"]).toBeUndefined();
    expect(await balance()).toBe("4.00");

    const login = await t.anonymous.call(
      authRoutes.login,
      { email: owner.email, password: owner.password },
      { headers: { "idempotency-key": "not a valid key" } },
    );
    expect(login.statusCode).toBe(200);
  });

  it("makes one effect of five identical requests at once: the others replay it or are told to wait", async () => {
    const { transfer, balance } = await world();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => transfer("7.00", { "idempotency-key": key })),
    );
    for (const answer of answers) {
      if (answer.statusCode === 409) {
        expect(answer.json()).toMatchObject({ code: "idempotency_key_in_progress" });
        expect(answer.headers["retry-after"]).toBe("1");
      } else expect(answer.statusCode, answer.body).toBe(201);
    }
    expect(answers.filter((a) => a.statusCode === 201 && !a.headers["idempotent-replayed"])).toHaveLength(1);
    expect(await balance()).toBe("7.00");
  });
});
