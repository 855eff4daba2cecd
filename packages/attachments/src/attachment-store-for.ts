import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";
import { localAttachmentStore } from "./local-attachment-store";
import { type S3AttachmentSettings, s3AttachmentStore } from "./s3-attachment-store";

/** Where receipt files live (docs/spec/extensions.md §5, ATTACHMENT_STORAGE): local disk or any S3-compatible store. */
export type AttachmentSettings =
  | { storage: "local"; directory: string }
  | ({ storage: "s3" } & S3AttachmentSettings);

export function attachmentStoreFor(settings: AttachmentSettings): AttachmentStore {
  switch (settings.storage) {
    case "local":
      return localAttachmentStore(settings.directory);
    case "s3":
      return s3AttachmentStore(settings);
  }
}
