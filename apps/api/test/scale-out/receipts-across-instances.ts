import { bucketContents } from "@allot/attachments/testing/test-storage";
import { aBank } from "@allot/domain/testing/fixtures";
import { sampleGif, samplePng } from "@allot/domain/testing/sample-files";
import { expect, it } from "vitest";
import { downloadDigest, sendTransactionForm, sha256 } from "../testing/receipt-requests";
import { transactionForm } from "../testing/receipt-test-kit";
import type { ApiPair } from "./api-pair";
import { logIn, newUser } from "./http-calls";

/**
 * Receipts in one S3 store behind two instances: a file stored through one is served by the other,
 * a replace or delete through one is what every instance's readers see, and the store keeps only
 * the files rows reference (no instance keeps a file or a cache of its own).
 */
export function receiptsAcrossInstances(pair: ApiPair) {
  it("serves through B what A stored, replaces through B for A's readers, deletes through A from the store", async () => {
    const { a, b, s3 } = pair;
    if (!s3) throw new Error("the pair keeps its receipts in S3 only with { s3: true }");
    const stored = () => bucketContents(s3);
    const { bearer } = await logIn(a.base, await newUser(pair, "receipts"));
    const bank = await aBank(pair.db);
    const opened = await fetch(`${a.base}/api/v1/bank-accounts/`, {
      method: "POST",
      headers: { authorization: bearer, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Checking",
        bank: bank.id,
        available_balance: "100.00",
        posted_balance: "100.00",
      }),
    });
    expect(opened.status).toBe(201);
    const account = (await opened.json()) as { id: string };

    const png = samplePng(3, 2);
    const created = await sendTransactionForm(a.base, bearer, "POST", null, {
      ...transactionForm(account.id),
      image: { filename: "receipt.png", bytes: png },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const [first] = await stored();
    expect(first).toMatch(new RegExp(`^transactions/${id}/image/`));
    expect(await downloadDigest(b.base, bearer, id, "image")).toEqual({ status: 200, sha256: sha256(png) });

    const gif = sampleGif(4, 5);
    const replaced = await sendTransactionForm(b.base, bearer, "PATCH", id, {
      image: { filename: "receipt.gif", bytes: gif },
    });
    expect(replaced.status).toBe(200);
    const keys = await stored();
    expect(keys).toHaveLength(1);
    expect(keys).not.toContain(first);
    expect(await downloadDigest(a.base, bearer, id, "image")).toEqual({ status: 200, sha256: sha256(gif) });

    const deleted = await fetch(`${a.base}/api/v1/transactions/${id}/`, {
      method: "DELETE",
      headers: { authorization: bearer },
    });
    expect(deleted.status).toBe(204);
    expect(await stored()).toEqual([]);
    expect((await downloadDigest(b.base, bearer, id, "image")).status).toBe(404);
  });
}
