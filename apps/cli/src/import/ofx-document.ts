import { ValueProblem } from "./import-file-error";

/** An OFX element: a leaf holds a value, an aggregate holds children. */
export interface OfxElement {
  /** Upper-cased tag name ("STMTTRN", "INTU.BID"). */
  name: string;
  /** 1-based line of its opening tag. */
  line: number;
  /** The text of a leaf (entities decoded, trimmed); null for an aggregate. */
  value: string | null;
  children: OfxElement[];
}

/** A syntax error at a line of the file. */
export class OfxSyntaxError extends ValueProblem {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

// Tags, comments, processing instructions (<?xml …?>, <?OFX …?>) and CDATA; the text between them
// is element content.
const TOKEN = /<(\/?)([A-Za-z][\w.]*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

const decode = (text: string) =>
  text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

const countLines = (text: string, from: number, to: number) => {
  let lines = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
};

/**
 * The <OFX> element of an OFX file, 1.x SGML or 2.x XML (QFX is either, with Intuit's extra tags).
 * One reader serves both: SGML leaves need no end tag, so an element with text is a leaf that ends
 * at the next tag; an end tag closes everything opened since its start tag. An element ended that
 * way without text is an empty leaf (`<MEMO>` with no value, which real bank files contain): tags
 * that opened inside it are handed back to its parent. Aggregates must be closed (the OFX spec
 * requires it), so a file cut short is an error rather than a partial statement.
 */
export function parseOfxDocument(text: string): OfxElement {
  const start = /<OFX\s*>/i.exec(text);
  if (!start) throw new OfxSyntaxError(1, "no <OFX> element: this is not an OFX or QFX file");
  let line = 1 + countLines(text, 0, start.index);
  const root: OfxElement = { name: "#root", line, value: null, children: [] };
  const stack: OfxElement[] = [root];
  const top = () => stack[stack.length - 1] as OfxElement;

  const addText = (raw: string, at: number) => {
    const value = decode(raw).trim();
    if (value === "") return;
    const element = top();
    if (element === root) throw new OfxSyntaxError(at, `text outside <OFX>: '${value.slice(0, 40)}'`);
    if (element.children.length > 0)
      throw new OfxSyntaxError(at, `unexpected text '${value.slice(0, 40)}' inside <${element.name}>`);
    element.value = element.value === null ? value : `${element.value} ${value}`;
  };

  // A leaf closed without its own end tag; its stray children go back to its parent.
  const endLeaf = (leaf: OfxElement) => {
    leaf.value ??= "";
    if (leaf.children.length > 0) {
      top().children.push(...leaf.children);
      leaf.children = [];
    }
  };

  TOKEN.lastIndex = start.index;
  let position = start.index;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    addText(text.slice(position, match.index), line);
    line += countLines(text, position, match.index);
    const [whole, closing, rawName, selfClosing, cdata] = match;
    position = match.index + whole.length;
    if (cdata !== undefined) addText(cdata, line);
    else if (rawName !== undefined) {
      const name = rawName.toUpperCase();
      if (closing) {
        const at = stack.findLastIndex((element) => element.name === name);
        if (at < 1) throw new OfxSyntaxError(line, `</${name}> closes nothing: no <${name}> is open`);
        while (stack.length - 1 > at) endLeaf(stack.pop() as OfxElement);
        const closed = stack.pop() as OfxElement;
        if (closed.value === null && closed.children.length === 0) closed.value = "";
        if (name === "OFX") return closed;
      } else {
        if (top().value !== null) stack.pop();
        const element: OfxElement = { name, line, value: selfClosing ? "" : null, children: [] };
        top().children.push(element);
        if (!selfClosing) stack.push(element);
      }
    }
    line += countLines(text, match.index, position);
  }
  addText(text.slice(position), line);
  line += countLines(text, position, text.length);
  const open = stack.slice(1).filter((element) => element.value === null);
  const innermost = open[open.length - 1];
  throw new OfxSyntaxError(
    line,
    innermost
      ? `the file ends inside <${innermost.name}> (opened on line ${innermost.line}): is it complete?`
      : "the file ends before </OFX>: is it complete?",
  );
}

/** The first child named `name`, if any. */
export const child = (element: OfxElement, name: string): OfxElement | undefined =>
  element.children.find((c) => c.name === name);

/** A leaf child's text, or undefined when absent or empty. */
export const childValue = (element: OfxElement, name: string): string | undefined =>
  child(element, name)?.value || undefined;

/** Every element named `name` below `element`, in document order. */
export function descendants(element: OfxElement, name: string): OfxElement[] {
  const found: OfxElement[] = [];
  const walk = (e: OfxElement) => {
    for (const c of e.children) {
      if (c.name === name) found.push(c);
      else walk(c);
    }
  };
  walk(element);
  return found;
}
