import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { filesUnder } from "../test/testing/test-storage";
import { localAttachmentStore } from "./local-attachment-store";

/* What only the local adapter does (the shared behaviour is in attachment-store.contract.test.ts). */

const keyOf = () => `transactions/${randomUUID()}/image/${randomUUID()}`;

describe("the local attachment store on disk", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "allot-attachments-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("keeps files owner-only and leaves no temporary file behind", async () => {
    const store = localAttachmentStore(join(root, "attachments"));
    const key = keyOf();
    await store.put(key, Buffer.from("receipt"), "application/pdf");
    expect(await filesUnder(root)).toEqual([join(root, "attachments", key)]);
    expect((await stat(join(root, "attachments", key))).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, "attachments", "transactions"))).mode & 0o777).toBe(0o700);
  });

  it("leaves no temporary file when a put fails, and keeps what was there", async () => {
    const store = localAttachmentStore(join(root, "attachments"));
    const key = keyOf();
    // A folder (not empty) where the file should go: the final rename fails.
    await mkdir(join(root, "attachments", key, "in-the-way"), { recursive: true });
    await expect(store.put(key, Buffer.from("receipt"), "application/pdf")).rejects.toThrow();
    expect(await filesUnder(root)).toEqual([]);
    expect(await readdir(join(root, "attachments", key))).toEqual(["in-the-way"]);
    // Not a file: an error to see, neither a missing file nor a stream failing later.
    await expect(store.open(key)).rejects.toThrow(/^not a file under attachment key/);
  });
});
