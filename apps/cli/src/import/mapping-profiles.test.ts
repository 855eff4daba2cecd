import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CsvFlags,
  checkProfileName,
  csvOptionsOf,
  resolveProfile,
  saveProfile,
} from "./mapping-profiles";

const MAP = "date=Date,amount=Amount,description=Description";
let folder: string;
let counter = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "allot-profiles-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** A config file holding a login and one saved profile. */
async function configWithProfile() {
  const path = join(folder, `config-${++counter}.json`);
  const login = { base_url: "http://127.0.0.1:1", username: "cleo", access_token: "a", refresh_token: "r" };
  await writeFile(path, JSON.stringify(login));
  await saveProfile(path, "chase", { map: MAP, date_format: "MM/DD/YYYY" });
  return { path, login };
}

describe("mapping profiles", () => {
  it("saves a mapping beside the login, and adds more without losing either", async () => {
    const { path, login } = await configWithProfile();
    await saveProfile(path, "dkb", { map: MAP, decimal: ",", delimiter: ";", skip_lines: 4 });
    // The single-login file it was written beside is now the profile "default".
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      current_profile: "default",
      profiles: { default: login },
      import_profiles: {
        chase: { map: MAP, date_format: "MM/DD/YYYY" },
        dkb: { map: MAP, decimal: ",", delimiter: ";", skip_lines: 4 },
      },
    });
  });

  it.each<[string, CsvFlags, object]>([
    ["the saved profile", { mapping: "chase" }, { map: MAP, date_format: "MM/DD/YYYY" }],
    [
      "options override it",
      { mapping: "chase", dateFormat: "M/D/YYYY", decimal: ",", skipLines: "2" },
      { map: MAP, date_format: "M/D/YYYY", decimal: ",", skip_lines: 2 },
    ],
    ["options alone", { map: MAP, delimiter: "tab" }, { map: MAP, delimiter: "\t" }],
  ])("resolves %s", async (_name, flags, expected) => {
    const { path } = await configWithProfile();
    expect(await resolveProfile(path, flags)).toEqual(expected);
  });

  it.each<[string, CsvFlags, RegExp]>([
    [
      "an unknown profile, listing the saved ones",
      { mapping: "nope" },
      /No saved mapping 'nope' \(saved: chase\)/,
    ],
    ["no map at all", {}, /Say which columns hold what/],
    ["a bad map", { map: "date=Date" }, /'description' is required/],
    ["a bad date format", { map: MAP, dateFormat: "MM/YYYY" }, /must contain a year, a month and a day/],
    ["a bad decimal", { map: MAP, decimal: ";" }, /--decimal must be '.' or ','/],
    ["a bad delimiter", { map: MAP, delimiter: ";;" }, /--delimiter must be one character/],
    ["bad skip lines", { map: MAP, skipLines: "-1" }, /--skip-lines must be a whole number/],
  ])("refuses %s", async (_name, flags, message) => {
    const { path } = await configWithProfile();
    await expect(resolveProfile(path, flags)).rejects.toThrow(message);
  });

  it("turns a profile into CSV reader options with defaults", () => {
    expect(csvOptionsOf({ map: MAP })).toEqual({
      map: { date: "Date", amount: "Amount", description: ["Description"] },
      dateFormat: "YYYY-MM-DD",
      decimal: ".",
      skipLines: 0,
    });
  });

  it.each([
    ["ok_name-1.2", true],
    ["has space", false],
    ["", false],
    ["a/b", false],
  ])("profile name %j valid: %s", (name, ok) => {
    if (ok) expect(checkProfileName(name)).toBe(name);
    else expect(() => checkProfileName(name)).toThrow(/is not a mapping name/);
  });
});
