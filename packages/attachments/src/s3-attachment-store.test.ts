import { randomBytes, randomUUID } from "node:crypto";
import { access } from "node:fs/promises";
import { inspect } from "node:util";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningS3Server, startS3Server } from "../test/testing/s3-server";
import { bucketContents } from "../test/testing/test-storage";
import { s3AttachmentStore } from "./s3-attachment-store";

/* What only the S3 adapter does (the shared behaviour is in attachment-store.contract.test.ts). */

const keyOf = () => `transactions/${randomUUID()}/document/${randomUUID()}`;

describe("the S3 attachment store", () => {
  let server: RunningS3Server;
  beforeEach(async () => {
    server = await startS3Server();
  });
  afterEach(() => server.stop());

  it("stores the content type and length given", async () => {
    const { settings } = server;
    const key = keyOf();
    await s3AttachmentStore(settings).put(key, Buffer.from("%PDF-1.7 receipt"), "application/pdf");
    const client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    });
    const head = await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }));
    client.destroy();
    expect({ type: head.ContentType, length: head.ContentLength }).toEqual({
      type: "application/pdf",
      length: 16,
    });
  });

  it("fails, rather than finding nothing, when the bucket is missing; and shows no secret", async () => {
    // s3rver checks the access key but not SigV4 signatures, so any secret is accepted.
    const secret = `secret-${randomUUID()}`;
    const store = s3AttachmentStore({
      ...server.settings,
      bucket: "no-such-bucket",
      secretAccessKey: secret,
    });
    const failure = await store.open(keyOf()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ name: "NoSuchBucket" });
    expect(inspect(failure, { depth: 10, showHidden: true })).not.toContain(secret);
    expect(inspect(store, { depth: 10, showHidden: true })).not.toContain(secret);
    await expect(store.put(keyOf(), Buffer.from("x"), "image/png")).rejects.toMatchObject({
      name: "NoSuchBucket",
    });
  });

  it("fails on a wrong access key instead of treating objects as missing", async () => {
    const store = s3AttachmentStore({ ...server.settings, accessKeyId: "NOT-S3RVER" });
    await expect(store.open(keyOf())).rejects.toMatchObject({ name: "InvalidAccessKeyId" });
  });
});

describe("the s3rver test kit", () => {
  it("stops with a body left unread, and removes its folder", async () => {
    const server = await startS3Server();
    const store = s3AttachmentStore(server.settings);
    const key = keyOf();
    await store.put(key, randomBytes(8 * 1024 * 1024), "application/pdf");
    const opened = await store.open(key);
    // The kit cuts the connection under the unread body: that error is expected, not a failure.
    opened?.body.on("error", () => {});
    await server.stop();
    await expect(access(server.directory)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(store.open(key)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("holds the one request a test picks unanswered, and serves every other", async () => {
    const server = await startS3Server();
    try {
      const store = s3AttachmentStore(server.settings);
      const key = keyOf();
      await store.put(key, Buffer.from("kept"), "image/png");
      const held = server.hold((request) => request.method === "DELETE");
      // Never answered: it fails once stop() cuts its connection.
      store.remove(key).catch(() => {});
      expect(await held).toEqual({ method: "DELETE", url: expect.stringContaining(`/${key}`) });
      expect(await bucketContents(server)).toEqual([key]);
      await store.remove(key);
      expect(await bucketContents(server)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
