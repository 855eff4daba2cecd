import { ValidationFailed } from "@allot/domain/shared/errors";
import { NON_FIELD_ERRORS } from "@allot/domain/shared/validation";
import type { FastifyInstance } from "fastify";

const NUL = "\u0000";
const MESSAGE = "Null characters are not allowed.";
// tRPC serialises the body again with JSON.stringify, which recurses: a few thousand levels
// overflow the stack. A provider record (transaction-details) may nest 64 levels; nothing needs more than twice that.
const MAX_DEPTH = 128;
const TOO_DEEP = `The request nests deeper than ${MAX_DEPTH} levels.`;
// A body full of them needs no more than this many fields named back.
const MAX_REPORTED = 20;

/**
 * PostgreSQL text cannot hold U+0000 (it answers SQLSTATE 22021, a 500 for us). It is refused
 * where request data enters, once the body is parsed (JSON, form or multipart), so that no
 * string field, present or future, can carry one to the database. Absurdly deep nesting is
 * refused in the same walk.
 */
export function refuseNulCharacters(app: FastifyInstance) {
  app.addHook("preHandler", (request, _reply, done) => {
    const query = nulPaths(request.query);
    const body = nulPaths(request.body);
    if (query === TOO_DEEP || body === TOO_DEEP) return done(ValidationFailed.general(TOO_DEEP));
    const fields: Record<string, string[]> = {};
    // A bad list filter is reported under the parameter's name; a body field under its dotted path.
    for (const path of query) fields[path[0] ?? NON_FIELD_ERRORS] = [MESSAGE];
    for (const path of body) fields[path.join(".") || NON_FIELD_ERRORS] = [MESSAGE];
    if (Object.keys(fields).length > 0) return done(new ValidationFailed(fields));
    done();
  });
}

interface Step {
  value: unknown;
  key: string;
  parent: Step | null;
  depth: number;
}

/**
 * The paths of the strings (values or keys) holding NUL. Walked with an explicit stack and
 * parent links: parsed JSON can nest deeper than the call stack, and paths are built only when
 * found.
 */
function nulPaths(root: unknown): string[][] | typeof TOO_DEEP {
  const found: string[][] = [];
  const stack: Step[] = [{ value: root, key: "", parent: null, depth: 0 }];
  for (let step = stack.pop(); step && found.length < MAX_REPORTED; step = stack.pop()) {
    const { value } = step;
    if (typeof value === "string") {
      if (value.includes(NUL)) found.push(pathOf(step));
    } else if (value && typeof value === "object" && !ArrayBuffer.isView(value)) {
      if (step.depth >= MAX_DEPTH) return TOO_DEEP;
      // Uploaded files: their bytes (a Buffer) are not text and are left alone; their names are.
      for (const [key, item] of Object.entries(value)) {
        const child = { value: item, key, parent: step, depth: step.depth + 1 };
        if (key.includes(NUL)) found.push(pathOf(child));
        else stack.push(child);
      }
    }
  }
  return found;
}

function pathOf(step: Step): string[] {
  const path: string[] = [];
  for (let s: Step | null = step; s?.parent; s = s.parent) path.push(s.key);
  return path.reverse();
}
