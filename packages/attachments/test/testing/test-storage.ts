import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { attachmentStoreFor } from "../../src/attachment-store-for";
import type { RunningS3Server } from "./s3-server";

/** Where a test keeps receipts: a fresh temporary folder, or a fresh s3rver on loopback. */
export type TestStorageKind = "local" | "s3";

export const TEST_STORAGE_KINDS: readonly TestStorageKind[] = ["local", "s3"];

export interface TestStorage {
  kind: TestStorageKind;
  /** A new adapter over the storage each call (built by attachmentStoreFor, as the API builds it). */
  store(): AttachmentStore;
  /** An adapter of the same kind whose storage cannot be reached: any I/O it tried would fail. */
  unreachable(): AttachmentStore;
  /**
   * Every name the storage holds, sorted: the keys, and on local disk any temporary file too, and
   * anything written beside the store's folder as `../name`.
   */
  contents(): Promise<string[]>;
  stop(): Promise<void>;
}

export function startTestStorage(kind: TestStorageKind): Promise<TestStorage> {
  return kind === "local" ? startLocalStorage() : startS3Storage();
}

async function startLocalStorage(): Promise<TestStorage> {
  // The store's folder sits in a folder of its own, so a write beside it would show.
  const root = await mkdtemp(join(tmpdir(), "allot-attachments-"));
  const directory = join(root, "attachments");
  const blocker = join(root, "not-a-folder");
  await writeFile(blocker, "");
  return {
    kind: "local",
    store: () => attachmentStoreFor({ storage: "local", directory }),
    // Under a file: mkdir, open and rm would all fail with ENOTDIR.
    unreachable: () => attachmentStoreFor({ storage: "local", directory: join(blocker, "attachments") }),
    contents: async () =>
      (await filesUnder(root))
        .filter((path) => path !== blocker)
        .map((path) => relative(directory, path))
        .sort(),
    stop: () => rm(root, { recursive: true, force: true }),
  };
}

async function startS3Storage(): Promise<TestStorage> {
  // s3rver is loaded by the files that use it: every HTTP test file imports this one.
  const { startS3Server } = await import("./s3-server");
  const server = await startS3Server();
  return {
    kind: "s3",
    store: () => attachmentStoreFor(server.settings),
    // Port 1 on loopback: nothing listens, so any request would fail with ECONNREFUSED.
    unreachable: () => attachmentStoreFor({ ...server.settings, endpoint: "http://127.0.0.1:1" }),
    contents: () => bucketContents(server),
    stop: () => server.stop(),
  };
}

/** Every key in the server's bucket, sorted (ListObjectsV2, page after page). */
export async function bucketContents({ settings }: RunningS3Server): Promise<string[]> {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: settings.bucket, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ""));
      token = page.NextContinuationToken;
    } while (token !== undefined);
    return keys.sort();
  } finally {
    client.destroy();
  }
}

/** Every file below a folder, as paths (a local store's objects, and its temporary files too). */
export async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}
