import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { answersChecked } from "../env";

/*
 * A procedure's output schema describes its answers (the OpenAPI document is generated from it),
 * and every view already builds its answer in that shape, typed by the contract. Parsing each
 * answer again would copy it whole — for a page of 100 transactions, thousands of fields on every
 * request — so in production answers are sent as built (decision 0044). The tests set
 * ALLOT_CHECK_ANSWERS=1: then every answer is parsed, and must come out of its schema unchanged
 * (nothing stripped, nothing converted), so what production sends unparsed is what the suite
 * checked.
 */
const CHECK_ANSWERS = answersChecked();

/** An answer the schema would change: a view and its contract disagree. */
class AnswerOutOfContract extends Error {}

function checkedAnswer<O extends z.ZodType>(schema: O) {
  return (answer: unknown) => {
    const parsed = schema.parse(answer);
    if (!isDeepStrictEqual(parsed, answer))
      throw new AnswerOutOfContract(
        `The answer is not in its schema's shape: ${JSON.stringify(answer)?.slice(0, 500)} ` +
          `parses as ${JSON.stringify(parsed)?.slice(0, 500)}`,
      );
    return answer;
  };
}

/** The output schema for `.output()`: read by the OpenAPI document, applied to answers only in tests. */
export function answerSchema<O extends z.ZodType>(schema: O): O {
  const check = CHECK_ANSWERS ? checkedAnswer(schema) : (answer: unknown) => answer;
  return new Proxy(schema, {
    get: (target, property, receiver) => {
      if (property === "parse") return check;
      if (property === "parseAsync") return async (answer: unknown) => check(answer);
      return Reflect.get(target, property, receiver);
    },
  });
}
