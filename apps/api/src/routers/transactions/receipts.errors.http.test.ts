import { transactionRoutes } from "@allot/contract/transactions/routes";
import { ATTACHMENT_BODY_MAX_BYTES } from "@allot/contract/transactions/transaction";
import { sampleHtml, samplePdf, samplePng, sampleSvg } from "@allot/domain/testing/sample-files";
import { describe, expect, it } from "vitest";
import { enginesAndStores, receiptKit, transactionForm } from "../../../test/testing/receipt-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const MAX_BYTES = 2_000;

describe.each(enginesAndStores())("transaction receipts refused (%s, %s store)", (engine, storage) => {
  const t = useTestApp(engine, { attachmentMaxBytes: MAX_BYTES }, { attachments: storage });
  const kit = transactionKit(t);
  const receipts = receiptKit(t);

  it("answers 400 on the field to anything but a file or null (a URL, a number), as JSON or form text", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const bare = await kit.transaction(user, account.id);
    for (const value of [
      "https://example.com/r.png",
      "javascript:alert(1)",
      12,
      { filename: "x", bytes: [1] },
    ]) {
      for (const field of ["image", "document"] as const) {
        const created = await t
          .as(user)
          .callUnchecked(transactionRoutes.create, { ...transactionForm(account.id), [field]: value });
        expect(created.statusCode, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(created.json()).toEqual({ [field]: [expect.stringMatching(/^Upload a file here/)] });
        const updated = await t
          .as(user)
          .callUnchecked(transactionRoutes.update, { id: bare.id, [field]: value });
        expect(updated.statusCode).toBe(400);
        expect(Object.keys(updated.json())).toEqual([field]);
      }
    }
    const form = await receipts.create(user, account.id, { image: "https://example.com/r.png" });
    expect(form.statusCode).toBe(400);
    expect(Object.keys(form.json())).toEqual(["image"]);
    // Only the one transaction made above (-10.00): none of the refused ones.
    expect(await kit.balances(user, account.id)).toEqual({ posted: "990.00", available: "990.00" });
  });

  it("refuses SVG, HTML and text whatever their name and declared type, a PDF as the image, on both fields at once", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const before = await receipts.storedKeys();
    const refused = await receipts.create(user, account.id, {
      image: { filename: "receipt.png", bytes: sampleSvg(), type: "image/png" },
      document: { filename: "receipt.pdf", bytes: sampleHtml(), type: "application/pdf" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      image: ["Upload a JPEG, PNG, WebP, GIF or HEIC image; this file is of another or unknown type."],
      document: [
        "Upload a PDF, or a JPEG, PNG, WebP, GIF or HEIC image; this file is of another or unknown type.",
      ],
    });
    const pdfAsImage = await receipts.create(user, account.id, {
      image: { filename: "r.pdf", bytes: samplePdf() },
    });
    expect(pdfAsImage.statusCode).toBe(400);
    expect(pdfAsImage.json()).toEqual({
      image: ["Upload a JPEG, PNG, WebP, GIF or HEIC image; this file is application/pdf."],
    });
    const text = await receipts.create(user, account.id, {
      document: { filename: "notes.txt", bytes: Buffer.from("hello") },
    });
    expect(text.statusCode).toBe(400);
    // Nothing was stored, nothing created.
    expect(await receipts.storedKeys()).toEqual(before);
    expect(await kit.balances(user, account.id)).toEqual({ posted: "1000.00", available: "1000.00" });
  });

  it("refuses a file over ATTACHMENT_MAX_BYTES with 400 on the field, and a body over the upload bound with 413", async () => {
    const user = await t.user();
    const account = await kit.account(user);
    const big = samplePng(60, 60);
    const large = Buffer.concat([big, Buffer.alloc(MAX_BYTES + 1 - big.length)]);
    const over = await receipts.create(user, account.id, { image: { filename: "big.png", bytes: large } });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      image: [expect.stringMatching(/^Ensure this file is at most .*2000 bytes/)],
    });

    const huge = await receipts.create(user, account.id, {
      document: { filename: "huge.pdf", bytes: Buffer.alloc(ATTACHMENT_BODY_MAX_BYTES + 1) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: "request_too_large" });
    expect(await kit.balances(user, account.id)).toEqual({ posted: "1000.00", available: "1000.00" });
  });

  it("removes the file of a write the database refused (an unknown account, another user's row) at once", async () => {
    const user = await t.user();
    const other = await t.user();
    const theirs = await kit.transaction(other, (await kit.account(other)).id);
    const before = await receipts.storedKeys();
    const queuedBefore = await receipts.queued();

    const unknown = await receipts.create(user, "00000000-0000-4000-8000-000000000000", {
      image: { filename: "a.png", bytes: samplePng() },
    });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json())).toEqual(["bank_account"]);
    const stranger = await receipts.send(user, "PATCH", theirs.id, {
      image: { filename: "a.png", bytes: samplePng() },
    });
    expect(stranger.statusCode).toBe(404);
    expect(await receipts.storedKeys()).toEqual(before);
    expect(await receipts.queued()).toEqual(queuedBefore);
    expect((await t.as(other).call(transactionRoutes.update, { id: theirs.id })).json().image).toBeNull();
  });
});
