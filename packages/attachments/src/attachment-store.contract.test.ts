import { createHash, randomBytes, randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestStorage, TEST_STORAGE_KINDS, type TestStorage } from "../test/testing/test-storage";

/*
 * One contract, both adapters: whatever ATTACHMENT_STORAGE says, the API sees the same store.
 * Each backend is built through attachmentStoreFor, as the API builds it (test/testing/test-storage.ts).
 */

const keyOf = (transaction = randomUUID(), kind: "image" | "document" = "image", id = randomUUID()) =>
  `transactions/${transaction}/${kind}/${id}`;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Reads a body through a pipeline, as the API pipes it to a response: its digest, length and chunk count. */
async function digestOf(body: Readable) {
  const hash = createHash("sha256");
  let size = 0;
  let chunks = 0;
  await pipeline(body, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
      chunks += 1;
    }
  });
  return { sha256: hash.digest("hex"), size, chunks };
}

describe.each(TEST_STORAGE_KINDS)("the %s attachment store", (kind) => {
  let backend: TestStorage;
  let store: AttachmentStore;
  beforeEach(async () => {
    backend = await startTestStorage(kind);
    store = backend.store();
  });
  afterEach(() => backend.stop());

  it("gives back the bytes put, and their size, for a small file, an empty one and a 10 MB one", async () => {
    for (const bytes of [Buffer.from("%PDF-1.7 receipt"), Buffer.alloc(0), randomBytes(10 * 1024 * 1024)]) {
      const key = keyOf();
      await store.put(key, bytes, "application/pdf");
      const opened = await store.open(key);
      expect(opened?.size).toBe(bytes.length);
      // Digests, not buffers: a mismatch of 10 MB would print 10 MB.
      const read = await digestOf((opened as { body: Readable }).body);
      expect({ sha256: read.sha256, size: read.size }).toEqual({ sha256: sha256(bytes), size: bytes.length });
    }
  });

  it("streams the body in pieces rather than as one buffer", async () => {
    const bytes = randomBytes(4 * 1024 * 1024);
    const key = keyOf();
    await store.put(key, bytes, "image/png");
    const opened = await store.open(key);
    const read = await digestOf((opened as { body: Readable }).body);
    expect(read.sha256).toBe(sha256(bytes));
    expect(read.chunks).toBeGreaterThan(1);
  });

  it("opens nothing under a key never put, in a transaction with files or without", async () => {
    const transaction = randomUUID();
    await store.put(keyOf(transaction, "image"), Buffer.from("png"), "image/png");
    expect(await store.open(keyOf(transaction, "image"))).toBeNull();
    expect(await store.open(keyOf(transaction, "document"))).toBeNull();
    expect(await store.open(keyOf())).toBeNull();
  });

  it("opens nothing once removed, and removing what is not there resolves", async () => {
    const key = keyOf();
    await store.put(key, Buffer.from("gone soon"), "image/jpeg");
    await store.remove(key);
    expect(await store.open(key)).toBeNull();
    await expect(store.remove(key)).resolves.toBeUndefined();
    await expect(store.remove(keyOf())).resolves.toBeUndefined();
    expect(await backend.contents()).toEqual([]);
  });

  it("keeps each key's object to itself: putting or removing one leaves the others", async () => {
    const transaction = randomUUID();
    const id = randomUUID();
    // Same transaction and the same random id, only the kind differs; and a third in another transaction.
    const image = keyOf(transaction, "image", id);
    const document = keyOf(transaction, "document", id);
    const other = keyOf(randomUUID(), "image", id);
    await store.put(image, Buffer.from("image bytes"), "image/png");
    await store.put(document, Buffer.from("document bytes"), "application/pdf");
    await store.put(other, Buffer.from("other bytes"), "image/gif");
    await store.remove(document);
    const imageOpened = await store.open(image);
    const otherOpened = await store.open(other);
    expect(await digestOf((imageOpened as { body: Readable }).body)).toMatchObject({
      sha256: sha256(Buffer.from("image bytes")),
    });
    expect(await digestOf((otherOpened as { body: Readable }).body)).toMatchObject({
      sha256: sha256(Buffer.from("other bytes")),
    });
    expect(await store.open(document)).toBeNull();
  });

  it("is shared: a second instance over the same storage opens and removes the first one's objects", async () => {
    const second = backend.store();
    const key = keyOf();
    const bytes = randomBytes(256 * 1024);
    await store.put(key, bytes, "image/webp");
    const opened = await second.open(key);
    expect(opened?.size).toBe(bytes.length);
    expect((await digestOf((opened as { body: Readable }).body)).sha256).toBe(sha256(bytes));
    await second.remove(key);
    expect(await store.open(key)).toBeNull();
  });

  describe("refuses any key it does not make, before any I/O", () => {
    // A name no test run could otherwise leave in the temporary folder.
    const marker = `allot-escape-${randomUUID()}`;
    const valid = keyOf();
    const refused = [
      "",
      "..",
      `../${marker}`,
      `../../${marker}`,
      `transactions/../../${marker}`,
      `${valid}/../../../../../${marker}`,
      `/tmp/${marker}`,
      `${tmpdir()}/${valid}`,
      `/${valid}`,
      `./${valid}`,
      `${valid}/`,
      `${valid}.tmp`,
      `${valid}\n`,
      valid.toUpperCase(),
      valid.replaceAll("/", "\\"),
      `users/${randomUUID()}/image/${randomUUID()}`,
      `transactions/${randomUUID()}/avatar/${randomUUID()}`,
      `transactions/${randomUUID()}/image`,
      undefined as unknown as string,
    ];

    it.each(refused.map((key) => [JSON.stringify(key) ?? "undefined", key]))("%s", async (_, key) => {
      const bytes = Buffer.from("<svg onload=alert(1)>");
      // An adapter whose storage cannot be reached still answers with the refusal: nothing was tried.
      const unreachable = backend.unreachable();
      await expect(unreachable.put(key, bytes, "image/svg+xml")).rejects.toThrow(/^not an attachment key/);
      await expect(unreachable.open(key)).rejects.toThrow(/^not an attachment key/);
      await expect(unreachable.remove(key)).rejects.toThrow(/^not an attachment key/);

      await expect(store.put(key, bytes, "image/svg+xml")).rejects.toThrow(/^not an attachment key/);
      await expect(store.open(key)).rejects.toThrow(/^not an attachment key/);
      await expect(store.remove(key)).rejects.toThrow(/^not an attachment key/);
      expect(await backend.contents()).toEqual([]);
      // Nothing beside the store's own folder either (the temporary folder is its parent's parent).
      expect((await readdir(tmpdir())).filter((name) => name.includes(marker))).toEqual([]);
    });
  });
});
