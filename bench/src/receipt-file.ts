import { randomBytes } from "node:crypto";
import { sampleJpeg } from "@allot/domain/testing/sample-files";

/** The largest segment a JPEG holds: its length field (which counts itself) is 16 bits. */
const MAX_SEGMENT_PAYLOAD = 0xffff - 2;
const SEGMENT_HEADER = 4;
const COMMENT_MARKER = [0xff, 0xfe];

/**
 * A JPEG of `bytes` bytes: the domain's 1×1 baseline JPEG with comment segments of random bytes
 * before its frame, as a phone photo carries its EXIF and ICC segments before its pixels. file-type
 * and image-size (which the API reads a receipt with) take it as any JPEG; random bytes, so that
 * nothing on the way could shrink it.
 */
export function receiptJpeg(bytes: number): Buffer {
  const jpeg = sampleJpeg();
  const segments: Buffer[] = [];
  let left = bytes - jpeg.length;
  while (left > SEGMENT_HEADER) {
    // Never leave less than a segment's header for the last one.
    let payload = Math.min(MAX_SEGMENT_PAYLOAD, left - SEGMENT_HEADER);
    if (left - payload - SEGMENT_HEADER > 0 && left - payload - SEGMENT_HEADER <= SEGMENT_HEADER)
      payload -= SEGMENT_HEADER + 1;
    const segment = Buffer.alloc(SEGMENT_HEADER);
    segment.set(COMMENT_MARKER, 0);
    segment.writeUInt16BE(payload + 2, 2);
    segments.push(segment, randomBytes(payload));
    left -= SEGMENT_HEADER + payload;
  }
  // Start of image first, then the comments, then the rest of the picture.
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}
