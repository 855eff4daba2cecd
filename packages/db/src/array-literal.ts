/**
 * A PostgreSQL array literal, bound as one parameter and cast in the query
 * (`${arrayLiteral(ids)}::uuid[]`): a whole batch in one statement whatever its size. Every value
 * is quoted, with backslashes and quotes escaped, so it may hold commas, braces, quotes or the word
 * NULL and still arrives as itself; a null element is SQL NULL.
 */
export const arrayLiteral = (values: readonly (string | null)[]) =>
  `{${values.map((value) => (value === null ? "NULL" : `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`)).join(",")}}`;
