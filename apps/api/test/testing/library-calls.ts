/** A built-in function to count the calls of, and whose calls count. */
export interface WatchedCall {
  /** What holds the function (`Array.prototype`, `Object`, `globalThis`), and its name there. */
  on: object;
  name: string;
  /** The caller's stack frame, as V8 writes it: `at coerceSchema (file:///…/utils/zod.mjs:85:20)`. */
  from: RegExp;
  /** What one call counts for (1 unless told): the keys of the array a `forEach` walks, say. */
  weigh?: (self: unknown, args: unknown[]) => number;
}

const define = Object.defineProperty;

/**
 * A pattern for a stack frame in a library's file, ESM or CommonJS: `path` runs from the package's
 * name to the file's name without its extension, and may hold patterns itself
 * (`@trpc/server/dist/getErrorShape-[\w-]+`).
 */
export const libraryFrame = (path: string) => String.raw`\((file://)?/[^)]*/${path}\.[cm]?js:\d+:\d+\)`;

/**
 * Counts the calls that library code makes, directly, to built-in functions while `work` runs:
 * the work a library does, counted — the same on any machine and under any load — never timed.
 * Each watched function is replaced by a counting wrapper for the duration and put back after.
 * For the tests that keep our patches to libraries (docs/decisions/0063).
 */
export async function countLibraryCalls<Key extends string>(
  watched: Record<Key, WatchedCall>,
  work: () => Promise<unknown>,
): Promise<Record<Key, number>> {
  const counts = {} as Record<Key, number>;
  const restores: (() => void)[] = [];
  try {
    for (const [key, call] of Object.entries(watched) as [Key, WatchedCall][]) {
      counts[key] = 0;
      const holder = call.on as Record<string, unknown>;
      const descriptor = Object.getOwnPropertyDescriptor(holder, call.name);
      const original = holder[call.name] as (...args: unknown[]) => unknown;
      const counted = function (this: unknown, ...args: unknown[]) {
        if (call.from.test(callerFrame())) counts[key] += call.weigh ? call.weigh(this, args) : 1;
        return new.target ? Reflect.construct(original, args) : original.apply(this, args);
      };
      // `x instanceof Request` still answers as it would for the class itself.
      if (typeof original.prototype === "object") counted.prototype = original.prototype;
      define(holder, call.name, { ...descriptor, value: counted });
      restores.push(() => (descriptor ? define(holder, call.name, descriptor) : delete holder[call.name]));
    }
    await work();
  } finally {
    for (const restore of restores.reverse()) restore();
  }
  return counts;
}

/**
 * The frame of whoever called the counting wrapper that calls this. V8's own stack format, not the
 * source-mapped one the test runner installs (which would run library code from inside a wrapper).
 */
function callerFrame(): string {
  const errors = Error as { prepareStackTrace?: unknown };
  const prepare = errors.prepareStackTrace;
  errors.prepareStackTrace = undefined;
  try {
    // 0: "Error", 1: callerFrame, 2: the counting wrapper, 3: its caller.
    return new Error().stack?.split("\n")[3] ?? "";
  } finally {
    errors.prepareStackTrace = prepare;
  }
}
