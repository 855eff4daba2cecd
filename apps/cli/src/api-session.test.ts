import { describe, expect, it } from "vitest";
import { type ApiOptions, resolveApiTarget } from "./api-session";
import type { CliConfig } from "./config-file";
import { type CliEnv, DEFAULT_BASE_URL } from "./env";

const WORK = "https://work.example.com";
const HOME = "http://home.example.com:8000";
const OTHER = "https://other.example.com";

const config: CliConfig = {
  current_profile: "work",
  profiles: {
    work: { base_url: WORK, username: "w", api_key: "key-work" },
    home: { base_url: HOME, username: "h", access_token: "access-home", refresh_token: "refresh-home" },
    bare: {},
  },
};

function env(values: Partial<CliEnv> = {}): CliEnv {
  return {
    database: { dataDir: "/tmp" },
    configPath: "/tmp/config.json",
    writeJournalPath: "/tmp/config.write-journal.json",
    baseUrl: undefined,
    apiKey: undefined,
    profile: undefined,
    workingDirectory: "/tmp",
    mail: { directory: "/tmp/mail", transport: undefined },
    ...values,
  };
}

/** [profile, URL, credential kind + source + value] a command would use. */
function target(e: CliEnv, options: ApiOptions, c: CliConfig = config) {
  const t = resolveApiTarget(e, options, c);
  const credential = t.credential
    ? `${t.credential.source}:${t.credential.kind === "api_key" ? t.credential.key : t.credential.access}`
    : null;
  return [t.profileName, t.baseUrl, credential];
}

describe("which profile, server and credential a command uses", () => {
  it.each<[string, CliEnv, ApiOptions, (string | null)[]]>([
    ["the current profile", env(), {}, ["work", WORK, "profile:key-work"]],
    [
      "ALLOT_PROFILE over the current one",
      env({ profile: "home" }),
      {},
      ["home", HOME, "profile:access-home"],
    ],
    [
      "--profile over ALLOT_PROFILE",
      env({ profile: "home" }),
      { profile: "work" },
      ["work", WORK, "profile:key-work"],
    ],
    [
      "ALLOT_API_KEY over the profile's key",
      env({ apiKey: "key-env" }),
      {},
      ["work", WORK, "environment:key-env"],
    ],
    [
      "--api-key over ALLOT_API_KEY",
      env({ apiKey: "key-env" }),
      { apiKey: "key-flag" },
      ["work", WORK, "flag:key-flag"],
    ],
    [
      "ALLOT_URL over the profile's URL; the profile's key is not sent there",
      env({ baseUrl: OTHER }),
      {},
      ["work", OTHER, null],
    ],
    [
      "--url over ALLOT_URL, trailing slash dropped",
      env({ baseUrl: OTHER }),
      { url: `${WORK}/` },
      ["work", WORK, "profile:key-work"],
    ],
    ["--base-url, the old name of --url", env(), { baseUrl: OTHER, apiKey: "k" }, ["work", OTHER, "flag:k"]],
    ["a profile without a URL: the default", env(), { profile: "bare" }, ["bare", DEFAULT_BASE_URL, null]],
  ])("%s", (_name, e, options, expected) => {
    expect(target(e, options)).toEqual(expected);
  });

  it("defaults: the profile 'default' and the local server when there is no config", () => {
    expect(target(env(), {}, { profiles: {} })).toEqual(["default", DEFAULT_BASE_URL, null]);
    expect(target(env({ apiKey: "k" }), {}, { profiles: {} })).toEqual([
      "default",
      DEFAULT_BASE_URL,
      "environment:k",
    ]);
  });

  it.each<[string, CliEnv, ApiOptions, RegExp]>([
    ["an unknown --profile", env(), { profile: "nope" }, /No profile 'nope' \(profiles: bare, home, work\)/],
    ["an unknown ALLOT_PROFILE", env({ profile: "nope" }), {}, /run `allot login --profile nope`/],
    ["a bad profile name", env(), { profile: "a b" }, /'a b' is not a profile name/],
    ["a bad URL", env(), { url: "ftp://x" }, /Not an http\(s\) URL: 'ftp:\/\/x'/],
    ["--url and --base-url disagreeing", env(), { url: WORK, baseUrl: HOME }, /give only --url/],
  ])("refuses %s as a usage error", (_name, e, options, message) => {
    expect(() => resolveApiTarget(e, options, config)).toThrow(message);
  });
});
