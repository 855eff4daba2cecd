import { startS3Server } from "@allot/attachments/testing/s3-server";
import { bucketContents } from "@allot/attachments/testing/test-storage";
import type { DatabaseHandle } from "@allot/db/create-database";
import { attachmentRemovals } from "@allot/db/schema/attachment-removals";
import { transactions } from "@allot/db/schema/transactions";
import { testEngines } from "@allot/db/testing/test-databases";
import { sampleGif, samplePng } from "@allot/domain/testing/sample-files";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { downloadDigest, sendTransactionForm, sha256 } from "../testing/receipt-requests";
import { transactionForm } from "../testing/receipt-test-kit";
import type { ApiProcess } from "./api-process";
import { seedAccount, seedOwner } from "./fault-seed";
import { pendingAnswer } from "./pending-answer";
import type { ScratchStore } from "./scratch-store";
import { login } from "./transfer-stream";
import { useFaultRun } from "./use-fault-run";

/*
 * SIGKILL of the API process after a write that lets a receipt go has committed, while it removes
 * the file from the S3 store (s3rver): the store holds that DELETE unanswered, and the kill follows
 * as soon as it arrives, so the commit is in and the object untouched. Twice: a replaced image
 * (PATCH), then a deleted transaction. Each time the object is still in the bucket and its
 * attachment_removals row is queued; a restarted server whose scheduler runs (SCHEDULER=embedded)
 * removes both orphans in its first pass, through the remove-attachments job, and empties the queue.
 */

const png = samplePng(3, 2);
const gif = sampleGif(4, 5);

/** The database as a killed process left it: the transaction's image key and the queued removals. */
async function leftBehind(store: ScratchStore, id: string) {
  const handle: DatabaseHandle = await store.open();
  try {
    const [row] = await handle.db
      .select({ imageKey: transactions.imageKey })
      .from(transactions)
      .where(eq(transactions.id, id));
    const queued = (await handle.db.select().from(attachmentRemovals)).map((removal) => removal.key).sort();
    return { imageKey: row?.imageKey ?? null, queued };
  } finally {
    await handle.close();
  }
}

describe.each(testEngines())("SIGKILL between a receipt's release and its removal from S3 (%s)", (engine) => {
  const run = useFaultRun(engine);

  it("leaves the object and its removal queued; the restarted server's job removes it", async () => {
    const s3 = await startS3Server();
    run.defer(() => s3.stop());
    const store = await run.store();
    const handle = await store.open();
    const owner = await seedOwner(handle.db);
    const account = await seedAccount(handle.db, owner, "Receipts", { balance: "100.00" });
    await handle.close();
    const withS3 = { ...store, env: { ...store.env, ...s3.env } };
    const bucket = () => bucketContents(s3);

    /** Sends `write`, waits for the DELETE it makes in the store (held there), and kills `api` then. */
    async function killAtRemoval(api: ApiProcess, write: () => Promise<Response>) {
      const removal = s3.hold((request) => request.method === "DELETE");
      const { answer } = pendingAnswer(write);
      const held = await removal;
      await api.kill();
      expect(await answer).toMatch(/^no response/);
      return held;
    }

    let api = await run.start(withS3);
    let bearer = `Bearer ${await login(api.base, owner.email, owner.password)}`;
    const created = await sendTransactionForm(api.base, bearer, "POST", null, {
      ...transactionForm(account.id),
      image: { filename: "first.png", bytes: png },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const [first] = await bucket();
    expect(first).toMatch(new RegExp(`^transactions/${id}/image/`));

    // 1. A replaced image: PATCH commits the new key; the kill lands on the old one's DELETE.
    const replacing = await killAtRemoval(api, () =>
      sendTransactionForm(api.base, bearer, "PATCH", id, { image: { filename: "second.gif", bytes: gif } }),
    );
    expect(replacing.url).toContain(`/${first}`);
    const afterReplace = await leftBehind(store, id);
    const second = afterReplace.imageKey as string;
    expect(second).toMatch(new RegExp(`^transactions/${id}/image/`));
    expect(second).not.toBe(first);
    expect(afterReplace.queued).toEqual([first]);
    expect(await bucket()).toEqual([first, second].sort());

    // The restarted server serves the new file; then a delete is killed the same way.
    api = await run.start(withS3);
    bearer = `Bearer ${await login(api.base, owner.email, owner.password)}`;
    expect(await downloadDigest(api.base, bearer, id, "image")).toEqual({ status: 200, sha256: sha256(gif) });
    const deleting = await killAtRemoval(api, () =>
      fetch(`${api.base}/api/v1/transactions/${id}/`, {
        method: "DELETE",
        headers: { authorization: bearer },
      }),
    );
    expect(deleting.url).toContain(`/${second}`);
    expect(await leftBehind(store, id)).toEqual({ imageKey: null, queued: [first, second].sort() });
    expect(await bucket()).toEqual([first, second].sort());

    // 2. A server whose scheduler runs: its first pass runs remove-attachments, which takes both.
    // LOG_LEVEL=info: a job's run is an `info` line (decision 0056).
    api = await run.start({ ...withS3, env: { ...withS3.env, SCHEDULER: "embedded", LOG_LEVEL: "info" } });
    const ran = /\{.*"job":"remove-attachments".*/;
    const deadline = Date.now() + 60_000;
    while (!ran.test(api.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(JSON.parse(ran.exec(api.output())?.[0] ?? "{}")).toMatchObject({ status: "done", result: 2 });
    expect(await bucket()).toEqual([]);
    await api.stop();
    expect((await leftBehind(store, id)).queued).toEqual([]);
  }, 300_000);
});
