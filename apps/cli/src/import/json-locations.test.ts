import { describe, expect, it } from "vitest";
import { arrayElementLines, parseJsonText } from "./json-locations";

describe("arrayElementLines", () => {
  it.each([
    ["one element per line", '{\n  "transactions": [\n    {"a": 1},\n    {"a": 2}\n  ]\n}', [3, 4]],
    ["elements over several lines", '{"transactions": [\n{\n"a": "x\\"]}"\n},\n\n{}\n]}', [2, 6]],
    [
      "nested arrays and other keys are not counted",
      '{"other": [1, 2], "t": 1,\n"transactions": [{"x": [1,\n2]}, {"y": {"transactions": [3]}}]}',
      [2, 3],
    ],
    ["an empty array", '{"transactions": []}', []],
    ["an escaped key", '{"trans\\u0061ctions": [\n1]}', [2]],
    ["no such key", '{"rows": [1]}', []],
  ])("%s", (_name, text, expected) => {
    JSON.parse(text);
    expect(arrayElementLines(text, "transactions")).toEqual(expected);
  });
});

describe("parseJsonText", () => {
  it("parses valid JSON", () => {
    expect(parseJsonText('{"a": 1}')).toEqual({ value: { a: 1 } });
  });

  it.each([
    ["a trailing comma", '{\n"a": 1,\n}', 3, /^not valid JSON: Expected double-quoted property name$/],
    ["a missing comma", '{"a": [1,\n2 3]}', 2, /^not valid JSON: Expected ',' or ']' after array element$/],
    ["the end of the input", '{\n"a":', 2, /^not valid JSON: Unexpected end of JSON input$/],
  ])("names the line of %s", (_name, text, line, message) => {
    expect(parseJsonText(text)).toEqual({ line, message: expect.stringMatching(message) });
  });
});
