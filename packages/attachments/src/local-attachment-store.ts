import { randomUUID } from "node:crypto";
import { type FileHandle, mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { AttachmentKey, AttachmentStore } from "@allot/domain/attachments/attachment-store";
import { checkedKey } from "./checked-key";

/**
 * Files on local disk under `directory` (`DATA_DIR/attachments` by default): nothing to set up, one
 * API instance (or several sharing the folder). Written to a temporary name, flushed and renamed, so
 * a file is either whole or absent, and still there after a crash once `put` resolves; owner-only.
 */
export function localAttachmentStore(directory: string): AttachmentStore {
  // Resolved once: a relative DATA_DIR must not follow later changes of the working directory.
  const root = resolve(directory);
  const pathOf = (key: AttachmentKey) => join(root, checkedKey(key));
  return {
    async put(key, body) {
      const path = pathOf(key);
      const folder = dirname(path);
      const created = await mkdir(folder, { recursive: true, mode: 0o700 });
      // Random, not the pid: instances on several machines may share the folder.
      const temporary = `${path}.${randomUUID()}.tmp`;
      try {
        const handle = await open(temporary, "wx", 0o600);
        try {
          await handle.writeFile(body);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      // The new names must survive a crash too: the file's in its folder, and those of any folders
      // mkdir just made in their parents.
      const last = created === undefined ? folder : dirname(created);
      for (let current = folder; ; current = dirname(current)) {
        await syncFolder(current);
        if (current === last || current === dirname(current)) break;
      }
    },
    async open(key) {
      const path = pathOf(key);
      let handle: FileHandle;
      try {
        handle = await open(path, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      // The size of the file opened, not of a path that may be replaced or removed meanwhile.
      try {
        const stats = await handle.stat();
        if (!stats.isFile()) throw new Error(`not a file under attachment key ${key}`);
        return { body: handle.createReadStream(), size: stats.size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

async function syncFolder(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
