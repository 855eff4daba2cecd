import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../output";
import { apiPathOf, fieldsOf, MAX_DATA_BYTES, readData } from "./api-input";

describe("apiPathOf", () => {
  const base = "https://allot.example.com";
  it.each([
    ["/v1/banks/", "/v1/banks/"],
    ["v1/banks/", "/v1/banks/"],
    [" v1/banks/?search=x ", "/v1/banks/?search=x"],
    ["/api/v1/banks/", "/v1/banks/"],
    ["api/v1/users/me/", "/v1/users/me/"],
    ["/apiary/", "/apiary/"],
    ["https://allot.example.com/api/v1/banks/?page=2", "/v1/banks/?page=2"],
  ])("reads %j as %j", (given, path) => {
    expect(apiPathOf(given, base)).toBe(path);
  });

  it("takes a URL below a server's own path prefix", () => {
    expect(apiPathOf("http://host:8080/allot/api/v1/banks/", "http://host:8080/allot")).toBe("/v1/banks/");
  });

  it.each([
    "https://elsewhere.example/api/v1/banks/",
    "http://allot.example.com/api/v1/banks/",
    "https://allot.example.com:8443/api/v1/banks/",
    "https://allot.example.com/admin/",
    "//elsewhere.example/api/v1/banks/",
    "allot.example.com:443/api/v1/banks/",
  ])("refuses %j: the credential goes to the configured server only", (given) => {
    expect(() => apiPathOf(given, base)).toThrow(/is not on https:\/\/allot\.example\.com/);
  });

  it.each(["/v1/banks/#x", "/v1/ba nks/"])("refuses %j", (given) => {
    expect(() => apiPathOf(given, base)).toThrow("is not a path");
  });
});

describe("fieldsOf", () => {
  it("reads key=text as strings and key:=JSON as values, a repeated key as a list", () => {
    expect(
      fieldsOf([
        "name=Rent",
        "memo=a=b",
        "empty=",
        "amount:=12.5",
        "paused:=false",
        "goal:=null",
        "tags:=[1,2]",
        "type=a",
        "type=b",
        'text:="x"',
      ]),
    ).toEqual({
      name: "Rent",
      memo: "a=b",
      empty: "",
      amount: 12.5,
      paused: false,
      goal: null,
      tags: [1, 2],
      type: ["a", "b"],
      text: "x",
    });
    expect(fieldsOf([])).toEqual({});
  });

  it.each([
    ["name", "'name' is not a field"],
    ["=x", "'=x' is not a field"],
    [":=1", "':=1' is not a field"],
    ["amount:=12,5", "'amount:=12,5': the value after := must be JSON"],
    ["amount:=", "'amount:=': the value after := must be JSON"],
  ])("refuses %j", (word, message) => {
    const attempt = () => fieldsOf([word]);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(message);
  });
});

describe("readData", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "allot-api-data-"));
    await writeFile(join(folder, "body.json"), '{"name": "Joint"}');
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("reads the text, @file from the working directory, or - from stdin", async () => {
    expect(await readData('{"a": 1}', folder)).toEqual({ a: 1 });
    expect(await readData("@body.json", folder)).toEqual({ name: "Joint" });
    expect(await readData("-", folder, Readable.from(['{"b"', ": [true]}"]))).toEqual({ b: [true] });
  });

  it.each([
    ["{nope", "--data is not JSON"],
    ["[1, 2]", "--data must be a JSON object"],
    ["12", "--data must be a JSON object"],
    ["null", "--data must be a JSON object"],
    ["@missing.json", "no such file"],
  ])("refuses %j", async (spec, message) => {
    await expect(readData(spec, folder)).rejects.toThrow(message);
  });

  it("refuses more than the API takes, without reading it all", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let read = 0;
    async function* endless() {
      for (;;) {
        read += 1;
        yield chunk;
      }
    }
    await expect(readData("-", folder, endless())).rejects.toThrow("more than the API takes");
    expect(read).toBe(MAX_DATA_BYTES / chunk.length + 1);
  });
});
