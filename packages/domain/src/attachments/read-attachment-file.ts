import type { UploadedFile } from "@allot/contract/http/uploaded-file";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { ValidationFailed } from "../shared/errors";

/** The two files a transaction may carry (docs/spec/extensions.md §5). */
export type AttachmentField = "image" | "document";

/** A stored name's bound: enough for any real file name, small enough for a header. */
const NAME_MAX_CHARS = 200;

// Still images only: the HEIF family as file-type names it (an iPhone's "heic" brand, or "mif1").
const IMAGE_TYPES: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/heic": "heic",
  "image/heif": "heic",
};
const DOCUMENT_TYPES: Record<string, string> = { "application/pdf": "pdf", ...IMAGE_TYPES };

const ACCEPTED: Record<AttachmentField, { types: Record<string, string>; says: string }> = {
  image: { types: IMAGE_TYPES, says: "a JPEG, PNG, WebP, GIF or HEIC image" },
  document: { types: DOCUMENT_TYPES, says: "a PDF, or a JPEG, PNG, WebP, GIF or HEIC image" },
};

/** What is stored about an accepted file beside its bytes. */
export interface AttachmentFile {
  /** Read from the content (never from the name or the declared type). */
  contentType: string;
  /** The uploaded name, cleaned and bounded; `<field>.<ext>` when none came. */
  name: string;
  size: number;
  /** Pixels, as displayed (EXIF rotation applied); null for a PDF. */
  width: number | null;
  height: number | null;
  bytes: Buffer;
}

/**
 * The most pixels an image may declare. A small file can name 100,000 × 100,000 pixels (40 GB
 * decoded): nothing that later decodes a receipt (a thumbnailer, a browser, an OCR step) may be
 * handed one. 100 megapixels is far above any phone camera or scanner page.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

// SI units, as the contract's "10 MB" (10,000,000 bytes).
const readableSize = (bytes: number) =>
  bytes >= 1_000_000 ? `${Math.floor(bytes / 100_000) / 10} MB` : `${Math.floor(bytes / 100) / 10} KB`;

/**
 * Checks one uploaded file for `field`: its type sniffed from the bytes, its size under `maxBytes`,
 * an image's dimensions readable from its header (never decoded) and within MAX_IMAGE_PIXELS. Anything else (SVG, HTML, text, an unknown format, a PNG
 * renamed .pdf passing for a PDF) is a 400 on the field.
 */
export async function readAttachmentFile(
  field: AttachmentField,
  file: UploadedFile,
  maxBytes: number,
): Promise<AttachmentFile> {
  const { bytes } = file;
  const refuse = (message: string) => ValidationFailed.on(field, message);
  if (bytes.length === 0) throw refuse("The submitted file is empty.");
  if (bytes.length > maxBytes)
    throw refuse(
      `Ensure this file is at most ${readableSize(maxBytes)} (${maxBytes} bytes); it has ${bytes.length}.`,
    );

  const accepted = ACCEPTED[field];
  const sniffed = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const extension = sniffed ? accepted.types[sniffed.mime] : undefined;
  if (!sniffed || extension === undefined)
    throw refuse(
      `Upload ${accepted.says}; this file is ${sniffed ? `${sniffed.mime}` : "of another or unknown type"}.`,
    );

  let width: number | null = null;
  let height: number | null = null;
  if (sniffed.mime !== "application/pdf") {
    const size = readImageSize(bytes);
    if (!size) throw refuse(`Upload ${accepted.says}; this ${sniffed.ext} file cannot be read.`);
    ({ width, height } = size);
    if (width * height > MAX_IMAGE_PIXELS)
      throw refuse(
        `Ensure this image is at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels; it declares ${width} × ${height} pixels.`,
      );
  }
  return {
    contentType: sniffed.mime,
    name: cleanFileName(file.filename) || `${field}.${extension}`,
    size: bytes.length,
    width,
    height,
    bytes,
  };
}

/** Width and height as shown: EXIF orientations 5–8 turn the picture a quarter. */
function readImageSize(bytes: Buffer): { width: number; height: number } | null {
  try {
    const size = imageSize(bytes);
    if (!size.width || !size.height) return null;
    const turned = size.orientation !== undefined && size.orientation >= 5;
    return turned ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
  } catch {
    return null;
  }
}

/**
 * The last path segment of a declared name, without control characters, trimmed and bounded:
 * it only ever names the download, so nothing else about it matters.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return Array.from(clean).slice(0, NAME_MAX_CHARS).join("");
}
