import stringWidth from "string-width";

/**
 * The columns a text takes on a terminal: a CJK character or an emoji takes two, a combining
 * accent or a zero-width joiner none, so a column after them still lines up.
 */
export const displayWidth = (text: string): number => stringWidth(text);

/** The text with spaces after it up to `width` terminal columns. */
export const padEndToWidth = (text: string, width: number): string =>
  text + " ".repeat(Math.max(0, width - displayWidth(text)));
