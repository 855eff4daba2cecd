import fc from "fast-check";
import {
  brokenJson,
  deeplyNested,
  deeplyNestedText,
  garbageAuthorization,
  hostileMultipart,
  hostileString,
  hostileUuid,
  huge,
  type RefKind,
  ref,
  wrongContentTypes,
  wrongType,
} from "./fuzz-values";
import type { FuzzOperation, OpenApiDocument } from "./openapi-operations";
import { type Mix, SchemaArbitraries } from "./schema-arbitraries";

type AuthChoice = "bearer" | "apiKey" | "none" | "garbage" | "otherUser";

type BodyPlan =
  | { kind: "json"; value: unknown }
  | { kind: "form"; value: Record<string, unknown> }
  | { kind: "multipart"; value: Record<string, unknown> }
  | { kind: "text"; contentType: string | null; text: string };

/**
 * One generated request, before the world's ids are filled in (see fuzz-values.ts's tokens).
 * Plain data: it prints as the reproduction of a failure.
 */
export interface RequestPlan {
  auth: AuthChoice;
  garbageAuthorization?: string;
  /** Send the refresh cookie the fuzzing user holds. */
  cookie: boolean;
  pathValues: Record<string, string>;
  dropTrailingSlash: boolean;
  /**
   * One delimiter of the path's own text (`-`, `.` or `/`, the n-th mod their count) spelled
   * percent-encoded (`%2D`), or encoded twice (`%252D`): the answer is a 4xx or this operation's.
   */
  encodedDelimiter: { nth: number; twice: boolean } | null;
  query: [string, unknown][];
  body: BodyPlan | null;
}

/** Which pool a path's `{id}` comes from, by the collection it names. */
const PATH_ID_KINDS: [RegExp, RefKind][] = [
  [/^\/v1\/bank-accounts\/\{id\}/, "account"],
  [/^\/v1\/budgets\/\{id\}/, "budget"],
  [/^\/v1\/transactions\/\{id\}/, "transaction"],
  [/^\/v1\/transaction-categories\/\{id\}/, "category"],
  [/^\/v1\/allocations\/\{id\}/, "allocation"],
  [/^\/v1\/internal-transactions\/\{id\}/, "transfer"],
  [/^\/v1\/funding-occurrences\/\{id\}/, "occurrence"],
  [/^\/v1\/banks\/\{id\}/, "bank"],
];

const OTHER_KINDS: Partial<Record<RefKind, RefKind>> = {
  account: "otherAccount",
  budget: "otherBudget",
  transaction: "otherTransaction",
  category: "otherCategory",
};

const weighted = <T>(...entries: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));

/** Every kind of request the fuzz sends to one operation. */
export function requestPlans(document: OpenApiDocument, operation: FuzzOperation): fc.Arbitrary<RequestPlan> {
  const arbs = new SchemaArbitraries(document);
  const mix = weighted<Mix>(
    [4, fc.constant("plausible")],
    [4, fc.constant("mixed")],
    [2, fc.constant("hostile")],
  );

  return mix.chain((m) =>
    fc.record({
      auth: authChoice(operation),
      garbageAuthorization,
      cookie: weighted([5, fc.constant(false)], [1, fc.constant(true)]),
      pathValues: pathValues(operation, arbs, m),
      dropTrailingSlash: weighted([9, fc.constant(false)], [1, fc.constant(true)]),
      encodedDelimiter: weighted<RequestPlan["encodedDelimiter"]>(
        [10, fc.constant(null)],
        [1, fc.record({ nth: fc.nat(20), twice: fc.boolean() })],
      ),
      query: query(operation, arbs, m),
      body: body(operation, arbs, m),
    }),
  );
}

function authChoice(operation: FuzzOperation): fc.Arbitrary<AuthChoice> {
  if (operation.isPublic)
    return weighted<AuthChoice>(
      [7, fc.constant("none")],
      [1, fc.constant("bearer")],
      [1, fc.constant("apiKey")],
      [1, fc.constant("garbage")],
    );
  return weighted<AuthChoice>(
    [9, fc.constant("bearer")],
    [7, fc.constant("apiKey")],
    [1, fc.constant("otherUser")],
    [1, fc.constant("none")],
    [1, fc.constant("garbage")],
  );
}

function pathValues(operation: FuzzOperation, arbs: SchemaArbitraries, mix: Mix) {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of operation.pathParameters) {
    const kind =
      parameter.name === "id"
        ? (PATH_ID_KINDS.find(([re]) => re.test(operation.path))?.[1] ?? "budget")
        : undefined;
    const plausible = arbs.plausible(parameter.schema, parameter.name, mix, kind).map(String);
    const other = kind && OTHER_KINDS[kind] ? ref(OTHER_KINDS[kind]) : hostileUuid;
    const hostile = fc.oneof(
      hostileUuid,
      hostileString,
      fc.constantFrom("%2F", "a/b", "%00", "%", "%zz", "%C0%AF"),
    );
    // An empty segment names another path (`/users/` for `/users/{username}/`): not this operation.
    model[parameter.name] = (
      mix === "plausible"
        ? weighted([12, plausible], [1, other])
        : weighted([mix === "mixed" ? 6 : 2, plausible], [1, other], [2, hostile])
    ).filter((value) => value !== "");
  }
  return fc.record(model);
}

function query(
  operation: FuzzOperation,
  arbs: SchemaArbitraries,
  mix: Mix,
): fc.Arbitrary<[string, unknown][]> {
  if (operation.queryParameters.length === 0)
    return weighted<[string, unknown][]>(
      [6, fc.constant([])],
      [1, fc.array(fc.tuple(fc.constantFrom("page", "x", "__proto__", ""), hostileString), { maxLength: 2 })],
    );
  const each = operation.queryParameters.map((parameter) =>
    weighted<[string, unknown][]>(
      [3, fc.constant([])],
      [2, arbs.value(parameter.schema, parameter.name, mix).map((v) => [[parameter.name, v]])],
      // A repeated parameter: a list filter, or a second value to confuse a scalar one.
      [
        1,
        fc
          .array(arbs.value(parameter.schema, parameter.name, mix), { minLength: 2, maxLength: 3 })
          .map((values) => values.map((v) => [parameter.name, v] as [string, unknown])),
      ],
    ),
  );
  const unknown = weighted<[string, unknown][]>(
    [8, fc.constant([])],
    [1, fc.tuple(fc.constantFrom("unknown", "page[]", "page_size[x]", "a.b"), hostileString).map((p) => [p])],
  );
  return fc.tuple(fc.tuple(...each), unknown).map(([lists, extra]) => [...lists.flat(), ...extra]);
}

function body(operation: FuzzOperation, arbs: SchemaArbitraries, mix: Mix): fc.Arbitrary<BodyPlan | null> {
  if (!operation.body) {
    // Bodiless operations still get an occasional body: it must be ignored or refused, never a 500.
    return weighted<BodyPlan | null>(
      [12, fc.constant(null)],
      [1, fc.jsonValue({ maxDepth: 2 }).map((value) => ({ kind: "json", value }))],
      [1, brokenJson.map((text) => ({ kind: "text", contentType: "application/json", text }))],
    );
  }
  const value = arbs.value(operation.body, "", mix) as fc.Arbitrary<Record<string, unknown>>;
  const json = value.map<BodyPlan>((v) => ({ kind: "json", value: v }));
  return weighted<BodyPlan | null>(
    [40, json],
    [4, value.map((v) => ({ kind: "form", value: v }))],
    [2, value.map((v) => ({ kind: "multipart", value: v }))],
    [3, wrongType.map((v) => ({ kind: "json", value: v }))],
    [2, deeplyNested.map((v) => ({ kind: "json", value: { nested: v } }))],
    [1, deeplyNestedText.map((text) => ({ kind: "text", contentType: "application/json", text }))],
    [3, brokenJson.map((text) => ({ kind: "text", contentType: "application/json", text }))],
    [
      3,
      fc
        .tuple(wrongContentTypes, value)
        .map(([contentType, v]) => ({ kind: "text", contentType, text: JSON.stringify(v) })),
    ],
    [1, hostileMultipart.map(({ contentType, text }) => ({ kind: "text", contentType, text }))],
    [1, fc.constant({ kind: "text", contentType: null, text: "" })],
    [1, fc.constant(null)],
    [
      1,
      fc.constant({
        kind: "text",
        contentType: "application/json",
        text: `{"a":"${huge(6 * 1024 * 1024)}"}`,
      }),
    ],
  );
}
