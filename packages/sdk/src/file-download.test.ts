import { describe, expect, it } from "vitest";
import { filenameOf } from "./file-download";

describe("filenameOf (Content-Disposition)", () => {
  it.each([
    ['inline; filename="receipt.png"', "receipt.png"],
    ["attachment; filename=receipt.png", "receipt.png"],
    ['inline; filename="a \\"quoted\\" name.pdf"', 'a "quoted" name.pdf'],
    // filename* wins over filename, wherever it stands.
    ["inline; filename=\"facture _t_.pdf\"; filename*=UTF-8''facture%20%C3%A9t%C3%A9.pdf", "facture été.pdf"],
    ["inline; filename*=utf-8'en'%E2%82%AC%20rates.pdf; filename=\"_ rates.pdf\"", "€ rates.pdf"],
    ["inline; FILENAME*=iso-8859-1''caf%E9.jpg", "café.jpg"],
    ['inline; filename="semi;colon.png"', "semi;colon.png"],
  ])("%s → %s", (header, name) => {
    expect(filenameOf(header)).toBe(name);
  });

  it("falls back to filename when filename* cannot be read, and is null without either", () => {
    expect(filenameOf("inline; filename=\"plain.png\"; filename*=UTF-8''%E2%82")).toBe("plain.png");
    expect(filenameOf("inline; filename=\"plain.png\"; filename*=KOI8-R''%C1")).toBe("plain.png");
    expect(filenameOf("inline")).toBeNull();
    expect(filenameOf(undefined)).toBeNull();
  });
});
