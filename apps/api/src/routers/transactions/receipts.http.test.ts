import { activityRoutes } from "@allot/contract/activity/routes";
import { bankAccountRoutes } from "@allot/contract/bank-accounts/routes";
import { changeRoutes } from "@allot/contract/changes/routes";
import { transactionRoutes } from "@allot/contract/transactions/routes";
import { attachmentRemovals } from "@allot/db/schema/attachment-removals";
import { runAttachmentRemovals } from "@allot/domain/attachments/run-attachment-removals";
import { internalContext } from "@allot/domain/shared/use-case-context";
import { sampleGif, samplePdf, samplePng } from "@allot/domain/testing/sample-files";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enginesAndStores, receiptKit } from "../../../test/testing/receipt-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const png = samplePng(3, 2);
const url = (id: string, field: string) => `http://allot.test/api/v1/transactions/${id}/${field}/`;

describe.each(enginesAndStores())("transaction receipts over HTTP (%s, %s store)", (engine, storage) => {
  const t = useTestApp(engine, {}, { attachments: storage });
  const kit = transactionKit(t);
  const receipts = receiptKit(t);

  it("takes a PNG on create: stored, answered as a URL with its size, downloaded as uploaded", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const created = await receipts.create(user, account.id, {
      image: { filename: "receipt.png", bytes: png, type: "image/png" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      image: url(body.id, "image"),
      image_width: 3,
      image_height: 2,
      document: null,
    });
    expect((await t.as(user).call(transactionRoutes.get, { id: body.id })).json()).toMatchObject({
      image: url(body.id, "image"),
      image_width: 3,
      image_height: 2,
    });
    const [key] = await receipts.storedFor(body.id);
    expect(key).toMatch(new RegExp(`^transactions/${body.id}/image/[0-9a-f-]{36}$`));
    // The commit took the upload's key off the removal queue.
    expect(await receipts.queued()).not.toContain(key);

    const download = await receipts.download(user, body.id, "image");
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);
    expect(download.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": String(png.length),
      "content-disposition": 'inline; filename="receipt.png"',
      "x-content-type-options": "nosniff",
      "cache-control": "private",
    });
    // Any credential, either form of the path.
    const byKey = await receipts.download(await t.apiKey(user), body.id, "image", "");
    expect(byKey.statusCode).toBe(200);
    expect(byKey.rawPayload.equals(png)).toBe(true);
    await kit.ledgerHolds(account.id);
  });

  it("takes a PDF or an image as the document, typed by content (a PNG named .pdf is a PNG)", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const created = await receipts.create(user, account.id, {
      document: { filename: "facture été.pdf", bytes: samplePdf(), type: "application/pdf" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    expect(created.json()).toMatchObject({ image: null, image_width: null, document: url(id, "document") });
    const pdf = await receipts.download(user, id, "document");
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe(
      "inline; filename=\"facture _t_.pdf\"; filename*=UTF-8''facture%20%C3%A9t%C3%A9.pdf",
    );

    const renamed = await receipts.send(user, "PATCH", id, {
      document: { filename: "invoice.pdf", bytes: png, type: "application/pdf" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const replaced = await receipts.download(user, id, "document");
    expect(replaced.headers["content-type"]).toBe("image/png");
    expect(replaced.headers["content-disposition"]).toBe('inline; filename="invoice.pdf"');
    expect(replaced.rawPayload.equals(png)).toBe(true);
  });

  it("replaces a file on PATCH and PUT: the old object is gone once the answer is in, the change fed and recorded", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const { id } = (
      await receipts.create(user, account.id, { image: { filename: "a.png", bytes: png } })
    ).json();
    const [first] = await receipts.storedFor(id);
    const cursor = (await t.as(user).call(changeRoutes.list, { id: account.id })).json().cursor;

    const gif = sampleGif(4, 5);
    const patched = await receipts.send(user, "PATCH", id, {
      image: { filename: "b.gif", bytes: gif, type: "image/gif" },
      memo: "with a new receipt",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ image: url(id, "image"), image_width: 4, image_height: 5 });
    const [second] = await receipts.storedFor(id);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await receipts.storedFor(id)).toEqual([second]);
    expect(await receipts.queued()).not.toContain(first);
    expect((await receipts.download(user, id, "image")).rawPayload.equals(gif)).toBe(true);

    // The change feed carries the row again, with its new file; the trail says what changed.
    const changes = (await t.as(user).call(changeRoutes.list, { id: account.id, since: cursor })).json();
    expect(changes.changes).toEqual([
      expect.objectContaining({
        type: "transaction",
        id,
        object: expect.objectContaining({ image_width: 4 }),
      }),
    ]);
    const activity = (await t.as(user).call(activityRoutes.list, { id: account.id })).json();
    expect(activity.results[0]).toMatchObject({
      type: "transaction.updated",
      data: { transaction: id, changes: ["memo", "image"] },
    });

    const put = await receipts.send(user, "PUT", id, {
      transaction_type: "ach",
      document: { filename: "r.pdf", bytes: samplePdf() },
    });
    expect(put.statusCode, put.body).toBe(200);
    // PUT without `image` keeps it.
    expect(put.json()).toMatchObject({ image: url(id, "image"), document: url(id, "document") });
    expect(await receipts.storedFor(id)).toHaveLength(2);
  });

  it("works under an Idempotency-Key: the old file goes after the keyed commit, a replay stores nothing", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const { id } = (
      await receipts.create(user, account.id, { image: { filename: "a.png", bytes: png } })
    ).json();
    const [first] = await receipts.storedFor(id);
    const keyed = (bytes: Buffer) =>
      receipts.send(
        user,
        "PATCH",
        id,
        { image: { filename: "b.gif", bytes } },
        { "idempotency-key": `k-${id}` },
      );
    const gif = sampleGif(2, 2);
    const answered = await keyed(gif);
    expect(answered.statusCode, answered.body).toBe(200);
    const [second] = await receipts.storedFor(id);
    expect(second).not.toBe(first);
    expect(await receipts.storedFor(id)).toEqual([second]);

    const replayed = await keyed(gif);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(await receipts.storedFor(id)).toEqual([second]);
    expect(await receipts.queued()).toEqual(expect.not.arrayContaining([expect.stringContaining(id)]));
    expect((await receipts.download(user, id, "image")).rawPayload.equals(gif)).toBe(true);
  });

  it("removes a file with JSON null or an empty form field; an empty file input keeps it", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const { id } = (
      await receipts.create(user, account.id, {
        image: { filename: "a.png", bytes: png },
        document: { filename: "r.pdf", bytes: samplePdf() },
      })
    ).json();
    expect(await receipts.storedFor(id)).toHaveLength(2);

    const untouched = await receipts.send(user, "PATCH", id, {
      image: { filename: "", bytes: Buffer.alloc(0) },
    });
    expect(untouched.statusCode, untouched.body).toBe(200);
    expect(untouched.json().image).toBe(url(id, "image"));
    expect(await receipts.storedFor(id)).toHaveLength(2);

    const nulled = await t.as(user).call(transactionRoutes.update, { id, image: null });
    expect(nulled.statusCode, nulled.body).toBe(200);
    expect(nulled.json()).toMatchObject({ image: null, image_width: null, image_height: null });
    expect((await receipts.storedFor(id)).map((key) => key.split("/")[2])).toEqual(["document"]);
    expect((await receipts.download(user, id, "image")).statusCode).toBe(404);

    const blank = await receipts.send(user, "PATCH", id, { document: "" });
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json().document).toBeNull();
    expect(await receipts.storedFor(id)).toEqual([]);
    expect(await receipts.queued()).toEqual(expect.not.arrayContaining([expect.stringContaining(id)]));
  });

  it("removes a deleted transaction's files, and an account's on its deletion (cascade)", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const one = (
      await receipts.create(user, account.id, { image: { filename: "a.png", bytes: png } })
    ).json();
    const two = (
      await receipts.create(user, account.id, { document: { filename: "r.pdf", bytes: samplePdf() } })
    ).json();
    expect(await receipts.storedFor(one.id)).toHaveLength(1);

    expect((await t.as(user).call(transactionRoutes.delete, { id: one.id })).statusCode).toBe(204);
    expect(await receipts.storedFor(one.id)).toEqual([]);
    expect(await receipts.storedFor(two.id)).toHaveLength(1);

    expect((await t.as(user).call(bankAccountRoutes.delete, { id: account.id })).statusCode).toBe(204);
    expect(await receipts.storedFor(two.id)).toEqual([]);
    const queued = await receipts.queued();
    expect(queued.filter((key) => key.includes(one.id) || key.includes(two.id))).toEqual([]);
  });

  it("leaves what a removal could not do to the scheduled job, which also clears a failed upload's file after its grace", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const { id } = (
      await receipts.create(user, account.id, { image: { filename: "a.png", bytes: png } })
    ).json();
    const [key] = (await receipts.storedFor(id)) as [string];
    const job = (at: Date, store = t.attachments.store) =>
      runAttachmentRemovals({ ...internalContext(t.db, "scheduler"), now: at }, store);
    // A file stored by a request that then died: queued a grace period ahead, never referenced.
    const orphan = `transactions/${id}/document/00000000-0000-4000-8000-000000000001`;
    await t.attachments.store.put(orphan, samplePdf(), "application/pdf");
    const now = new Date();
    await t.db
      .insert(attachmentRemovals)
      .values({ key: orphan, notBefore: new Date(now.getTime() + 3_600_000) });

    expect(await job(now)).toBe(0);
    expect(await receipts.storedFor(id)).toEqual([key, orphan].sort());
    const later = new Date(now.getTime() + 3_600_001);
    expect(await job(later)).toBeGreaterThanOrEqual(1);
    expect(await receipts.storedFor(id)).toEqual([key]);
    expect(await receipts.queued()).not.toContain(orphan);
    // The referenced file is untouched.
    expect((await receipts.download(user, id, "image")).statusCode).toBe(200);

    // A removal the store cannot do (here it cannot be reached) is retried with backoff.
    const stuck = `transactions/${id}/document/00000000-0000-4000-8000-000000000002`;
    await t.attachments.store.put(stuck, samplePdf(), "application/pdf");
    await t.db.insert(attachmentRemovals).values({ key: stuck, notBefore: later });
    expect(await job(later, t.attachments.storage.unreachable())).toBe(0);
    const [failed] = await t.db.select().from(attachmentRemovals).where(eq(attachmentRemovals.key, stuck));
    expect(failed).toMatchObject({
      attempts: 1,
      lastError: expect.any(String),
      notBefore: new Date(later.getTime() + 60_000),
    });
    expect(await job(new Date(later.getTime() + 59_999))).toBe(0);
    expect(await receipts.storedFor(id)).toEqual([key, stuck].sort());
    expect(await job(new Date(later.getTime() + 60_000))).toBe(1);
    expect(await receipts.storedFor(id)).toEqual([key]);
    expect(await receipts.queued()).not.toContain(stuck);
  });
});
