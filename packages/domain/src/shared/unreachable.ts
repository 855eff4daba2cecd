/**
 * The default of a switch over every member of a union: a member added later fails to compile
 * here, and a value from outside the type (a row the database should have refused) fails loudly.
 */
export function unreachable(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
