import { type AttachmentKey, isAttachmentKey } from "@allot/domain/attachments/attachment-store";

/**
 * The key itself, once it is one this service makes; anything else (`..`, an absolute path,
 * another prefix) throws before an adapter touches its disk or network.
 */
export const checkedKey = (key: AttachmentKey): AttachmentKey => {
  if (typeof key !== "string" || !isAttachmentKey(key)) {
    // Bounded: a key is never a secret, but it may be anything a caller passed.
    throw new Error(`not an attachment key: ${JSON.stringify(String(key).slice(0, 120))}`);
  }
  return key;
};
