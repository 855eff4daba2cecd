import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import type { AttachmentSettings } from "../../src/attachment-store-for";

export interface RunningS3Server {
  /** Settings for `attachmentStoreFor` (or `s3AttachmentStore`): its bucket exists and is empty. */
  settings: Extract<AttachmentSettings, { storage: "s3" }>;
  /** The same settings as a process reads them (ATTACHMENT_STORAGE=s3 and S3_*). */
  env: Record<string, string>;
  /** The folder s3rver stores in (removed by `stop`). */
  directory: string;
  /**
   * Holds the next request `matches` picks instead of serving it: it is never answered (its
   * connection stays open until the client goes, or `stop`). Resolves once that request arrived.
   */
  hold(matches: (request: IncomingMessage) => boolean): Promise<{ method: string; url: string }>;
  /** Closes the server (and any connection left open) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server for tests (s3rver), on loopback at a port the OS picks, storing in
 * a fresh temporary folder, with one bucket made. s3rver checks that the access key is its own
 * (`S3RVER`) but not SigV4 signatures, and refuses bucket names under 3 characters.
 */
export async function startS3Server(bucket = "allot-attachments"): Promise<RunningS3Server> {
  const directory = await mkdtemp(join(tmpdir(), "allot-s3rver-"));
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  try {
    await s3rver.configureBuckets();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  // Our own HTTP server around s3rver's handler: stop() can then close connections a test left open,
  // and hold() can keep a request from it.
  const serve = s3rver.callback();
  let held: {
    matches: (request: IncomingMessage) => boolean;
    arrived(request: IncomingMessage): void;
  } | null = null;
  const server = createServer((request, response) => {
    if (held?.matches(request)) {
      held.arrived(request);
      held = null;
      return;
    }
    serve(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings: RunningS3Server["settings"] = {
    storage: "s3",
    bucket,
    endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  return {
    settings,
    env: {
      ATTACHMENT_STORAGE: "s3",
      S3_BUCKET: settings.bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: String(settings.forcePathStyle),
    },
    directory,
    hold: (matches) =>
      new Promise((resolve) => {
        held = {
          matches,
          arrived: (request) => resolve({ method: request.method ?? "", url: request.url ?? "" }),
        };
      }),
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
