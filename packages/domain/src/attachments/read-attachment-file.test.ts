import { UploadedFile } from "@allot/contract/http/uploaded-file";
import { describe, expect, it } from "vitest";
import {
  hugeImages,
  sampleGif,
  sampleHeic,
  sampleHtml,
  sampleJpeg,
  samplePdf,
  samplePng,
  sampleSvg,
  sampleWebp,
} from "../../test/testing/sample-files";
import { ValidationFailed } from "../shared/errors";
import {
  type AttachmentField,
  cleanFileName,
  MAX_IMAGE_PIXELS,
  readAttachmentFile,
} from "./read-attachment-file";

const MAX = 1024 * 1024;
const read = (field: AttachmentField, bytes: Buffer, name = "receipt", max = MAX) =>
  readAttachmentFile(field, new UploadedFile(name, bytes), max);

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationFailed);
  return (error as ValidationFailed).fields;
};

describe("what a receipt file is", () => {
  it.each([
    ["PNG", samplePng(3, 2), "image/png", 3, 2],
    ["GIF", sampleGif(4, 5), "image/gif", 4, 5],
    ["JPEG", sampleJpeg(), "image/jpeg", 1, 1],
    ["WebP", sampleWebp(), "image/webp", 1, 1],
    ["HEIC", sampleHeic(8, 6), "image/heic", 8, 6],
  ])("takes a %s as an image or a document, with its size in pixels", async (_kind, bytes, type, w, h) => {
    for (const field of ["image", "document"] as const) {
      const file = await read(field, bytes);
      expect(file).toMatchObject({
        contentType: type,
        width: w,
        height: h,
        size: bytes.length,
        name: "receipt",
      });
      expect(file.bytes).toBe(bytes);
    }
  });

  it("takes a PDF as a document only, without pixel sizes", async () => {
    expect(await read("document", samplePdf(), "r.pdf")).toMatchObject({
      contentType: "application/pdf",
      width: null,
      height: null,
    });
    expect(await refusal(read("image", samplePdf(), "r.pdf"))).toEqual({
      image: ["Upload a JPEG, PNG, WebP, GIF or HEIC image; this file is application/pdf."],
    });
  });

  it("reads the type from the bytes, never the name: a PNG named .pdf is a PNG, an SVG named .png is refused", async () => {
    expect((await read("document", samplePng(), "invoice.pdf")).contentType).toBe("image/png");
    for (const field of ["image", "document"] as const) {
      for (const [bytes, name] of [
        [sampleSvg(), "receipt.png"],
        [sampleHtml(), "receipt.jpg"],
        [Buffer.from("just some text"), "receipt.pdf"],
        [Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]), "receipt.gif"],
      ] as const) {
        const errors = await refusal(read(field, bytes, name));
        expect(Object.keys(errors)).toEqual([field]);
        expect(errors[field]?.[0]).toMatch(/^Upload a .* this file is of another or unknown type\.$/);
      }
    }
  });

  it("refuses an image whose header it cannot read, an empty file and one over the limit", async () => {
    // A PNG's signature, then no header: its type sniffs as PNG, its size cannot be read.
    const headless = Buffer.concat([samplePng().subarray(0, 8), Buffer.alloc(40)]);
    expect(await refusal(read("image", headless))).toEqual({
      image: [expect.stringMatching(/cannot be read|unknown type/)],
    });
    expect(await refusal(read("document", Buffer.alloc(0)))).toEqual({
      document: ["The submitted file is empty."],
    });
    const png = samplePng(40, 40);
    expect(await read("image", png, "r", png.length)).toBeTruthy();
    expect(await refusal(read("image", png, "r", png.length - 1))).toEqual({
      image: [
        expect.stringMatching(
          new RegExp(`at most .*\\(${png.length - 1} bytes\\); it has ${png.length}\\.$`),
        ),
      ],
    });
  });

  it.each(Object.entries({ ...hugeImages(), HEIC: sampleHeic(100_000, 100_000) }))(
    "refuses a %s declaring more than 100 megapixels, as an image or a document, from its header alone",
    async (_kind, bytes) => {
      expect(bytes.length).toBeLessThan(1_000);
      for (const field of ["image", "document"] as const) {
        expect(await refusal(read(field, bytes))).toEqual({
          [field]: [
            expect.stringMatching(
              /^Ensure this image is at most 100 megapixels; it declares \d+ × \d+ pixels\.$/,
            ),
          ],
        });
      }
    },
  );

  it("takes an image of exactly 100 megapixels, and refuses one pixel row more", async () => {
    expect(MAX_IMAGE_PIXELS).toBe(100_000_000);
    expect(await read("image", sampleGif(10_000, 10_000))).toMatchObject({ width: 10_000, height: 10_000 });
    expect(await refusal(read("document", sampleGif(10_000, 10_001)))).toEqual({
      document: ["Ensure this image is at most 100 megapixels; it declares 10000 × 10001 pixels."],
    });
  });

  it("keeps the uploaded name's last segment, without control characters, bounded; a default when none came", async () => {
    expect(cleanFileName("C:\\Users\\me\\receipt.pdf")).toBe("receipt.pdf");
    expect(cleanFileName("../../etc/passwd")).toBe("passwd");
    expect(cleanFileName(" re\u0000ce\r\nipt\u0085.png ")).toBe("receipt.png");
    expect(cleanFileName("ü".repeat(500))).toBe("ü".repeat(200));
    expect((await read("image", samplePng(), "")).name).toBe("image.png");
    expect((await read("document", samplePdf(), "///")).name).toBe("document.pdf");
  });
});
