import { describe, expect, it } from "vitest";
import { stdoutIsUtf8 } from "./text-charset";

describe("stdoutIsUtf8", () => {
  it.each([
    [{ LANG: "en_US.UTF-8" }, true],
    [{ LANG: "C.utf8" }, true],
    [{ LC_CTYPE: "de_DE.UTF-8", LANG: "C" }, true],
    [{ LC_ALL: "C", LANG: "en_US.UTF-8" }, false],
    [{ LC_ALL: "", LC_CTYPE: "", LANG: "fr_FR.UTF-8" }, true],
    [{ LANG: "de_DE.ISO-8859-1" }, false],
    [{ LANG: "POSIX" }, false],
    [{}, false],
  ])("%j → %s", (env, utf8) => {
    expect(stdoutIsUtf8(env)).toBe(utf8);
  });
});
