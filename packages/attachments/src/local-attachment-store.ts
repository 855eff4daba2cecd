import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  type AttachmentKey,
  type AttachmentStore,
  isAttachmentKey,
} from "@allot/domain/attachments/attachment-store";

const checked = (key: AttachmentKey): AttachmentKey => {
  if (!isAttachmentKey(key)) throw new Error(`not an attachment key: ${JSON.stringify(key)}`);
  return key;
};

/**
 * Files on local disk under `directory` (`DATA_DIR/attachments` by default): nothing to set up, one
 * API instance (or several sharing the folder). Written to a temporary name and renamed, so a file
 * is either whole or absent; owner-only.
 */
export function localAttachmentStore(directory: string): AttachmentStore {
  const pathOf = (key: AttachmentKey) => join(directory, checked(key));
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, body, { mode: 0o600 });
      await rename(temporary, path);
    },
    async open(key) {
      const path = pathOf(key);
      try {
        const { size } = await stat(path);
        return { body: createReadStream(path), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
