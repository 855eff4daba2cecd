import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localAttachmentStore } from "@allot/attachments/local-attachment-store";
import type { AttachmentStore } from "@allot/domain/attachments/attachment-store";

/** A local attachment store in a fresh temporary folder (one per test app), and its clean-up. */
export function temporaryAttachmentStore(): { store: AttachmentStore; directory: string; remove(): void } {
  const directory = mkdtempSync(join(tmpdir(), "allot-attachments-"));
  return {
    store: localAttachmentStore(directory),
    directory,
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
