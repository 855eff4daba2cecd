import { crc32, deflateSync } from "node:zlib";

/*
 * Real, tiny files of each kind a receipt may be (and some it may not), made here rather than
 * committed as binaries: each is what its format's reader (file-type, image-size, a browser) takes.
 */

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** An RGB PNG of `width` × `height` pixels, all of one colour. */
export function samplePng(width = 3, height = 2, colour: [number, number, number] = [200, 30, 30]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => colour).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A GIF of `width` × `height` (the logical screen of the classic 1×1 transparent GIF, resized). */
export function sampleGif(width = 4, height = 5): Buffer {
  const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
}

/** A 1×1 baseline JPEG. */
export const sampleJpeg = (): Buffer =>
  Buffer.from(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
    "base64",
  );

/** A 1×1 lossless WebP. */
export const sampleWebp = (): Buffer =>
  Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, "latin1"), body]);
};
const uint32 = (...values: number[]) => {
  const buffer = Buffer.alloc(4 * values.length);
  values.forEach((value, i) => {
    buffer.writeUInt32BE(value, 4 * i);
  });
  return buffer;
};

/** The boxes of a HEIC that name its size (ftyp `heic`, then meta › iprp › ipco › ispe). */
export function sampleHeic(width = 8, height = 6): Buffer {
  return Buffer.concat([
    box("ftyp", Buffer.from("heic", "latin1"), uint32(0), Buffer.from("mif1heic", "latin1")),
    box("meta", uint32(0), box("iprp", box("ipco", box("ispe", uint32(0, width, height))))),
  ]);
}

/**
 * Decompression bombs: small files whose headers declare far more pixels than any receipt has,
 * each built from a real tiny image with only its declared size changed.
 * - PNG: 100,000 × 100,000 in IHDR, one compressed row of data behind it.
 * - JPEG: 65,535 × 65,535 in the frame header (the format's largest).
 * - GIF: 65,535 × 65,535 logical screen (the format's largest).
 * - WebP: 16,384 × 16,384 in the lossless header (the format's largest, 268 megapixels).
 */
export function hugeImages(): Record<"PNG" | "JPEG" | "GIF" | "WebP", Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(64))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  const jpeg = sampleJpeg();
  const frame = jpeg.indexOf(Buffer.from([0xff, 0xc2])); // SOF2: marker, length, precision, height, width
  jpeg.writeUInt16BE(0xffff, frame + 5);
  jpeg.writeUInt16BE(0xffff, frame + 7);
  const webp = sampleWebp();
  // VP8L: after the 0x2f signature, 14 bits of width − 1 and 14 of height − 1, then the flags.
  const bits = webp.readUInt32LE(21);
  webp.writeUInt32LE(((bits & ~0x0fffffff) | 16_383 | (16_383 << 14)) >>> 0, 21);
  return { PNG: png, JPEG: jpeg, GIF: sampleGif(65_535, 65_535), WebP: webp };
}

/** A one-page PDF. */
export const samplePdf = (): Buffer =>
  Buffer.from(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
    "latin1",
  );

/** Files a browser would run or render as a page: never accepted, whatever their name. */
export const sampleSvg = (): Buffer =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');
export const sampleHtml = (): Buffer =>
  Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
