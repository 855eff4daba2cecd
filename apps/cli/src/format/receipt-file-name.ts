import type { TransactionFileField } from "@allot/sdk/transactions-resource";

// Most file systems take 255 bytes a name; the rest of a longer name is dropped, its extension kept.
const MAX_NAME_BYTES = 255;

/** The extension a receipt of this type is saved with when the server gave no name. */
const EXTENSIONS: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/webp": ".webp",
  "image/gif": ".gif",
  "image/heic": ".heic",
  "application/pdf": ".pdf",
};

/**
 * A file name for a downloaded receipt in the current folder, from the name it was uploaded under
 * (Content-Disposition): no folder parts (`/`, `\`), no control or format characters (a bidi
 * override could disguise the extension), none of `<>:"|?*`, no leading dots (`..`, a hidden
 * file) and at most 255 bytes. A name left with no letter or digit is `receipt-<id>-<field>.<ext>`.
 */
export function receiptFileName(
  uploaded: string | null,
  fallback: { id: string; field: TransactionFileField; contentType: string },
): string {
  const cleaned = (uploaded ?? "")
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/[/\\<>:"|?*]/g, "_")
    .trim()
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");
  if (/[\p{L}\p{N}]/u.test(cleaned)) return shortened(cleaned);
  const extension = EXTENSIONS[fallback.contentType.split(";")[0]?.trim().toLowerCase() ?? ""] ?? "";
  return `receipt-${fallback.id}-${fallback.field}${extension}`;
}

/** The name cut to MAX_NAME_BYTES of UTF-8, whole characters only, its extension kept. */
function shortened(name: string): string {
  const bytes = (text: string) => Buffer.byteLength(text, "utf8");
  if (bytes(name) <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
  let stem = name.slice(0, name.length - extension.length);
  while (stem.length > 0 && bytes(stem) + bytes(extension) > MAX_NAME_BYTES)
    stem = Array.from(stem).slice(0, -1).join("");
  return `${stem}${extension}`;
}
