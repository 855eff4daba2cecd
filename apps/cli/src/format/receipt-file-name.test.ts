import { describe, expect, it } from "vitest";
import { receiptFileName } from "./receipt-file-name";

const ID = "0b5c3e1a-7d2f-4a61-9c8e-2f4b6d8a0c1e";
const name = (uploaded: string | null, contentType = "image/png") =>
  receiptFileName(uploaded, { id: ID, field: "image", contentType });

describe("receiptFileName", () => {
  it.each([
    ["receipt.png", "receipt.png"],
    ["facture été.pdf", "facture été.pdf"],
    ["../../etc/passwd", "_.._etc_passwd"],
    ["/etc/cron.d/evil", "_etc_cron.d_evil"],
    ["..\\..\\windows\\win.ini", "_.._windows_win.ini"],
    [".bashrc", "bashrc"],
    ["bill\u0007\u001b[31m.pdf", "bill[31m.pdf"],
    ["invoice\u202egpj.exe", "invoicegpj.exe"],
    ["line\nbreak.jpg", "linebreak.jpg"],
    ['a<b>c:d"e|f?g*.png', "a_b_c_d_e_f_g_.png"],
    ["  spaced.png  ", "spaced.png"],
    ["trailing.", "trailing"],
  ])("%j is saved as %j", (uploaded, saved) => {
    expect(name(uploaded)).toBe(saved);
  });

  it("names a file the server gave no usable name after the transaction, the field and the type", () => {
    for (const nothing of [null, "", "..", "/", "\u0000\u0001", " . "])
      expect(name(nothing)).toBe(`receipt-${ID}-image.png`);
    expect(receiptFileName(null, { id: ID, field: "document", contentType: "application/pdf" })).toBe(
      `receipt-${ID}-document.pdf`,
    );
    expect(name(null, "application/octet-stream")).toBe(`receipt-${ID}-image`);
  });

  it("keeps a long name within 255 bytes, whole characters, its extension kept", () => {
    const long = `${"é".repeat(300)}.jpeg`;
    const saved = name(long);
    expect(Buffer.byteLength(saved)).toBeLessThanOrEqual(255);
    expect(saved.endsWith("é.jpeg")).toBe(true);
    expect(saved).not.toContain("\uFFFD");
  });
});
