import { localeEnv } from "../env";

/**
 * Whether stdout may carry characters beyond ASCII (box drawing, arrows, bullets), the one place
 * the CLI decides it: as POSIX reads the locale, the first of LC_ALL, LC_CTYPE and LANG that is
 * set and not empty names the character set, and only a UTF-8 one says yes. Unset, `C` or `POSIX`
 * (a cron job, a bare `env -i`, a CI runner) is ASCII.
 */
export function stdoutIsUtf8(env: NodeJS.ProcessEnv = localeEnv()): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== "");
  return locale !== undefined && /utf-?8/i.test(locale);
}
