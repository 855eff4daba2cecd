import { describe, expect, it } from "vitest";
import { inlineContentDisposition } from "./content-disposition";

describe("a download's Content-Disposition", () => {
  it.each([
    ["receipt.pdf", 'inline; filename="receipt.pdf"'],
    [
      'a "quoted" \\ name.png',
      "inline; filename=\"a _quoted_ _ name.png\"; filename*=UTF-8''a%20%22quoted%22%20%5C%20name.png",
    ],
    ["reçu (1).jpg", "inline; filename=\"re_u (1).jpg\"; filename*=UTF-8''re%C3%A7u%20%281%29.jpg"],
    ["領収書.pdf", "inline; filename=\"___.pdf\"; filename*=UTF-8''%E9%A0%98%E5%8F%8E%E6%9B%B8.pdf"],
    ["x;y=z's.png", 'inline; filename="x;y=z\'s.png"'],
  ])("names %j safely", (name, header) => {
    expect(inlineContentDisposition(name)).toBe(header);
  });
});
