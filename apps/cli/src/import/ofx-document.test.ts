import { describe, expect, it } from "vitest";
import { type OfxElement, parseOfxDocument } from "./ofx-document";

/** An element as `NAME=value` or `NAME(children…)`, to compare trees in one line. */
const show = (e: OfxElement): string =>
  e.value === null ? `${e.name}(${e.children.map(show).join(" ")})` : `${e.name}=${e.value}`;

describe("parseOfxDocument", () => {
  it.each([
    ["SGML leaves without end tags", "<OFX><A><B>1<C>two words\n</A></OFX>", "OFX(A(B=1 C=two words))"],
    ["XML with end tags", "<OFX><A><B>1</B><C>2</C></A></OFX>", "OFX(A(B=1 C=2))"],
    ["mixed end tags", "<OFX><A><B>1</B><C>2\n</A></OFX>", "OFX(A(B=1 C=2))"],
    [
      "an empty SGML leaf before the end of its parent",
      "<OFX><T><NAME>x<MEMO>\n</T></OFX>",
      "OFX(T(NAME=x MEMO=))",
    ],
    [
      "an empty SGML leaf before its siblings (they stay siblings)",
      "<OFX><T><MEMO>\n<NAME>x\n<AMT>1\n</T></OFX>",
      "OFX(T(MEMO= NAME=x AMT=1))",
    ],
    ["an empty XML element", "<OFX><T><MEMO></MEMO><N>x</N></T></OFX>", "OFX(T(MEMO= N=x))"],
    ["a self-closing XML element", "<OFX><T><MEMO/><N>x</N></T></OFX>", "OFX(T(MEMO= N=x))"],
    ["entities", "<OFX><N>AT&amp;T &lt;b&gt; &#65;&#x42; &bogus;</OFX>", "OFX(N=AT&T <b> AB &bogus;)"],
    ["Intuit tags with a dot, lower case", "<OFX><intu.bid>3000</OFX>", "OFX(INTU.BID=3000)"],
    ["comments and CDATA", "<OFX><!-- note <X> --><N><![CDATA[a < b]]></N></OFX>", "OFX(N=a < b)"],
    ["the header before <OFX> is skipped", "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><N>1</OFX>", "OFX(N=1)"],
    ["text after </OFX> is ignored", "<OFX><N>1</OFX>\n\u0000junk", "OFX(N=1)"],
    ["values are trimmed, inner spaces kept", "<OFX><N>  A  B  \r\n</OFX>", "OFX(N=A  B)"],
  ])("%s", (_name, text, expected) => {
    expect(show(parseOfxDocument(text))).toBe(expected);
  });

  it("records the line of each opening tag", () => {
    const doc = parseOfxDocument(
      "H:1\r\n\r\n<OFX>\r\n<A>\r\n<B>1\r\n<!-- two\nlines -->\n<C>2\r\n</A>\r\n</OFX>",
    );
    const a = doc.children[0] as OfxElement;
    expect([doc.line, a.line, a.children[0]?.line, a.children[1]?.line]).toEqual([3, 4, 5, 8]);
  });

  it.each([
    ["not OFX", "Date,Amount\n2024-01-01,1", 1, /no <OFX> element/],
    ["an end tag that closes nothing", "<OFX>\n<A>\n<B>1\n</C>\n</OFX>", 4, /<\/C> closes nothing/],
    [
      "a file cut short",
      "<OFX>\n<BANKTRANLIST>\n<STMTTRN>\n<TRNAMT>1",
      4,
      /ends inside <STMTTRN> \(opened on line 3\)/,
    ],
    ["text in an aggregate", "<OFX>\n<A><B>1</B>\nstray</A></OFX>", 2, /unexpected text 'stray' inside <A>/],
  ])("refuses %s, naming the line", (_name, text, line, message) => {
    expect(() => parseOfxDocument(text)).toThrow(message);
    expect(() => parseOfxDocument(text)).toThrow(expect.objectContaining({ line }));
  });
});
