import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { checkedKey } from "./checked-key";

/** An S3-compatible bucket (docs/spec/extensions.md §5: S3_BUCKET, S3_ENDPOINT, …). */
export interface S3AttachmentSettings {
  bucket: string;
  /** Another store's address (MinIO, R2, Garage, …); AWS's own when absent. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path rather than the host name: most self-hosted stores need it. */
  forcePathStyle: boolean;
}

/**
 * Objects in one bucket of any S3-compatible store, so every API instance serves every file. The
 * bucket must exist; nothing here creates it. The client logs nothing (the SDK's default), so the
 * credentials are never printed, and no error made here carries them.
 */
export function s3AttachmentStore(settings: S3AttachmentSettings): AttachmentStore {
  const { bucket } = settings;
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The SDK's newer default checksums (CRC32 headers, aws-chunked bodies) are refused by several
    // S3-compatible stores; Content-MD5, which S3 and most compatible stores check (s3rver does
    // not), guards the upload instead.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Bounded: a store that does not answer fails the request instead of holding it forever.
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 30_000 },
  });
  return {
    async put(key, body, contentType) {
      const checked = checkedKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: checked,
          Body: body,
          ContentType: contentType,
          ContentLength: body.byteLength,
          ContentMD5: createHash("md5").update(body).digest("base64"),
        }),
      );
    },
    async open(key) {
      const checked = checkedKey(key);
      let answer: GetObjectCommandOutput;
      try {
        answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: checked }));
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
      const { Body: body, ContentLength: size } = answer;
      if (!(body instanceof Readable)) throw new Error("the S3 store answered without a body stream");
      if (size === undefined) {
        body.destroy();
        throw new Error("the S3 store answered without a Content-Length");
      }
      return { body, size };
    },
    async remove(key) {
      const checked = checkedKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checked }));
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible stores answer 404. Either way it is gone.
        if (!isMissingObject(error)) throw error;
      }
    },
  };
}

/** No such object: NoSuchKey, or a bare 404 from a store that sends no error code (not NoSuchBucket,
 * which is a misconfiguration to surface, not a missing file). */
function isMissingObject(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === "NoSuchKey") return true;
  return error.$metadata.httpStatusCode === 404 && error.name !== "NoSuchBucket";
}
