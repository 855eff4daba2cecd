import { ATTACHMENT_MAX_BYTES } from "@allot/contract/transactions/transaction";
import { samplePdf } from "@allot/domain/testing/sample-files";
import { describe, expect, it } from "vitest";
import { enginesAndStores, receiptKit } from "../../../test/testing/receipt-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

/** A PDF of exactly `size` bytes (its header, then padding). */
const pdfOf = (size: number) => {
  const head = samplePdf();
  return Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);
};

// The contract's "10 MB" read as SI: 10,000,000 bytes is taken, one byte more is not.
describe.each(enginesAndStores())("the default receipt size limit (%s, %s store)", (engine, storage) => {
  const t = useTestApp(engine, {}, { attachments: storage });
  const kit = transactionKit(t);
  const receipts = receiptKit(t);

  it("takes a file of exactly 10 MB and refuses one byte more with 400 on the field", async () => {
    expect(ATTACHMENT_MAX_BYTES).toBe(10_000_000);
    const user = await t.user();
    const account = await kit.account(user);

    const atLimit = await receipts.create(user, account.id, {
      document: { filename: "invoice.pdf", bytes: pdfOf(10_000_000) },
    });
    expect(atLimit.statusCode).toBe(201);
    const download = await receipts.download(user, atLimit.json().id, "document");
    expect(download.rawPayload.length).toBe(10_000_000);

    const over = await receipts.create(user, account.id, {
      document: { filename: "invoice.pdf", bytes: pdfOf(10_000_001) },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      document: [
        expect.stringMatching(/^Ensure this file is at most 10 MB \(10000000 bytes\); it has 10000001\.$/),
      ],
    });
  });
});
