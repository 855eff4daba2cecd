import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFileUpload, openUpload, withUploadDigests } from "./file-upload";
import { multipartForm } from "./multipart-form";

const BYTES = Buffer.from("%PDF-1.4 a receipt");
// sha256 of BYTES, as the server's UploadedFile.toJSON gives it.
const DIGEST = { filename: "bill.pdf", size: BYTES.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) };
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-sdk-upload-"));
  await writeFile(join(folder, "bill.pdf"), BYTES);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("file uploads", () => {
  it("knows a file from any other value of an input", () => {
    const files = [
      new Blob(["x"]),
      new File(["x"], "a.png"),
      { bytes: BYTES, filename: "a" },
      { path: "a.png" },
    ];
    for (const file of [...files, { path: "a.png", filename: "b.png" }])
      expect(isFileUpload(file)).toBe(true);
    for (const value of [null, "a.png", BYTES, { bytes: BYTES }, { path: "a", size: 3 }, { path: 1 }, ["a"]])
      expect(isFileUpload(value)).toBe(false);
  });

  it("names each kind: a File by its name, a path by its last segment, a bare Blob 'blob'", async () => {
    expect((await openUpload(new File(["x"], "r.png"))).filename).toBe("r.png");
    expect((await openUpload(new Blob(["x"]))).filename).toBe("blob");
    const byPath = await openUpload({ path: join(folder, "bill.pdf") });
    expect(byPath.filename).toBe("bill.pdf");
    expect(Buffer.from(await byPath.blob.arrayBuffer()).equals(BYTES)).toBe(true);
    await expect(openUpload({ path: join(folder, "missing.pdf") })).rejects.toMatchObject({
      code: "ENOENT",
      path: join(folder, "missing.pdf"),
    });
    await expect(openUpload({ path: folder })).rejects.toThrow(/is not a file/);
  });

  it("fingerprints a file by name, size and SHA-256: the same file is the same write however it is given", async () => {
    const given = [
      { bytes: BYTES, filename: "bill.pdf" },
      { path: join(folder, "bill.pdf") },
      new File([BYTES], "bill.pdf"),
    ];
    const digests = await Promise.all(given.map((document) => withUploadDigests({ id: "t1", document })));
    for (const digest of digests) expect(digest).toEqual({ id: "t1", document: DIGEST });
    expect(new Set(digests.map((digest) => JSON.stringify(digest))).size).toBe(1);
    const renamed = await withUploadDigests({ id: "t1", document: { bytes: BYTES, filename: "other.pdf" } });
    const changed = await withUploadDigests({
      id: "t1",
      document: { bytes: Buffer.from("x"), filename: "bill.pdf" },
    });
    expect(JSON.stringify(renamed)).not.toBe(JSON.stringify(digests[0]));
    expect(JSON.stringify(changed)).not.toBe(JSON.stringify(digests[0]));
    // A body without files is passed on as it is.
    const plain = { id: "t1", memo: null };
    expect(await withUploadDigests(plain)).toBe(plain);
  });
});

describe("multipartForm", () => {
  it("sends files as parts and other fields as form text, null as an empty value", async () => {
    const form = await multipartForm({
      image: { bytes: BYTES, filename: "r.png" },
      document: null,
      pending: false,
      merchant_latitude: 52.5,
      transaction_date: new Date("2026-03-10T12:00:00Z"),
      memo: undefined,
    });
    expect([...form.keys()]).toEqual([
      "image",
      "document",
      "pending",
      "merchant_latitude",
      "transaction_date",
    ]);
    expect((form.get("image") as File).name).toBe("r.png");
    expect([form.get("document"), form.get("pending"), form.get("merchant_latitude")]).toEqual([
      "",
      "false",
      "52.5",
    ]);
    expect(form.get("transaction_date")).toBe("2026-03-10T12:00:00.000Z");
  });

  it("refuses a list or an object beside a file, before anything is sent", async () => {
    await expect(multipartForm({ image: new Blob(["x"]), splits: { b1: "1.00" } })).rejects.toThrow(
      /'splits' \(a list or an object\) cannot be sent beside a file/,
    );
  });
});
