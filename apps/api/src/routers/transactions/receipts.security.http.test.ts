import { hugeImages, samplePdf, samplePng } from "@allot/domain/testing/sample-files";
import { describe, expect, it } from "vitest";
import { enginesAndStores, receiptKit } from "../../../test/testing/receipt-test-kit";
import { useTestApp } from "../../../test/testing/test-app";
import { transactionKit } from "../../../test/testing/transaction-test-kit";

const png = samplePng();

describe.each(enginesAndStores())(
  "transaction receipts: who may download (%s, %s store)",
  (engine, storage) => {
    const t = useTestApp(engine, {}, { attachments: storage });
    const kit = transactionKit(t);
    const receipts = receiptKit(t);

    it("answers the owners only: 404 to a stranger by login or API key, 401 without a credential", async () => {
      const owner = await t.user();
      const stranger = await t.user();
      const staff = await t.user({ staff: true });
      const account = await kit.account(owner);
      const { id } = (
        await receipts.create(owner, account.id, { image: { filename: "a.png", bytes: png } })
      ).json();

      for (const caller of [stranger, await t.apiKey(stranger), staff]) {
        const refused = await receipts.download(caller, id, "image");
        expect(refused.statusCode).toBe(404);
        expect(refused.json()).toEqual({ detail: "No transaction matches the given id.", code: "not_found" });
        expect(refused.rawPayload.includes(png)).toBe(false);
      }
      const anonymous = await receipts.download(null, id, "image");
      expect(anonymous.statusCode).toBe(401);
      const forged = await receipts.download("Bearer not-a-token", id, "image");
      expect(forged.statusCode).toBe(401);
      expect((await receipts.download(owner, id, "image")).statusCode).toBe(200);
    });

    it("answers 404 for no file, no such transaction, and 400 for an id that is not one; other methods 405", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const bare = await kit.transaction(owner, account.id);
      const none = await receipts.download(owner, bare.id, "document");
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ detail: "This transaction has no document.", code: "not_found" });
      expect(
        (await receipts.download(owner, "00000000-0000-4000-8000-000000000000", "image")).statusCode,
      ).toBe(404);
      const traversal = await receipts.download(owner, "..%2f..%2fetc", "image");
      expect([400, 404]).toContain(traversal.statusCode);
      const notUuid = await receipts.download(owner, "not-a-uuid", "image");
      expect(notUuid.statusCode).toBe(400);
      expect(Object.keys(notUuid.json())).toEqual(["id"]);
      const post = await t.inject({
        method: "POST",
        url: `/api/v1/transactions/${bare.id}/image/`,
        headers: { authorization: owner.bearer },
      });
      expect(post.statusCode).toBe(405);
    });

    it("names the download safely whatever the uploaded name: no header injection, no path", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const { id } = (
        await receipts.create(owner, account.id, {
          image: { filename: "../../evil; filename=x.html ü.png", bytes: png },
        })
      ).json();
      const download = await receipts.download(owner, id, "image");
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-disposition"]).toBe(
        "inline; filename=\"evil; filename=x.html _.png\"; filename*=UTF-8''evil%3B%20filename%3Dx.html%20%C3%BC.png",
      );
      expect(download.headers["content-type"]).toBe("image/png");
      expect(download.headers["x-content-type-options"]).toBe("nosniff");
    });

    it("serves every download sandboxed: a PDF or an image cannot run script or load anything", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const pdfWithScript = Buffer.concat([
        samplePdf(),
        Buffer.from("4 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\n", "latin1"),
      ]);
      const { id } = (
        await receipts.create(owner, account.id, {
          image: { filename: "r.png", bytes: png },
          document: { filename: "r.pdf", bytes: pdfWithScript },
        })
      ).json();
      for (const field of ["image", "document"] as const) {
        const download = await receipts.download(owner, id, field);
        expect(download.statusCode).toBe(200);
        expect(download.headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
        expect(download.headers["x-content-type-options"]).toBe("nosniff");
      }
    });

    it("refuses an image declaring more than 100 megapixels, as the image or the document, and stores nothing", async () => {
      const owner = await t.user();
      const account = await kit.account(owner);
      const storedBefore = await receipts.storedKeys();
      for (const [kind, bytes] of Object.entries(hugeImages())) {
        const created = await receipts.create(owner, account.id, {
          image: { filename: `bomb.${kind}`, bytes },
          document: { filename: `bomb.${kind}`, bytes },
        });
        expect(created.statusCode, kind).toBe(400);
        expect(created.json()).toEqual({
          image: [
            expect.stringMatching(
              /^Ensure this image is at most 100 megapixels; it declares \d+ × \d+ pixels\.$/,
            ),
          ],
          document: [expect.stringMatching(/^Ensure this image is at most 100 megapixels/)],
        });
      }
      expect(await receipts.storedKeys()).toEqual(storedBefore);
    });
  },
);
