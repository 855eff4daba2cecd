import fc from "fast-check";
import {
  currencies,
  hostileBoolean,
  hostileDate,
  hostileInteger,
  hostileMoney,
  hostileString,
  hostileUuid,
  huge,
  plausibleDate,
  plausibleDateTime,
  plausibleMoney,
  plausibleText,
  type RefKind,
  ref,
  STRONG_PASSWORD,
  schedules,
  timezones,
  wrongType,
} from "./fuzz-values";
import { type JsonSchema, type OpenApiDocument, resolveSchema } from "./openapi-operations";

/**
 * fast-check arbitraries for a JSON Schema of the document: `plausible` values (what a careful
 * client would send, with real ids), `hostile` ones (anything else), and objects that mix the two
 * field by field. Field names steer the plausible values where the schema alone says too little
 * (a `transaction_date` is only `{"type": "string"}`, a `bank_account` is any UUID).
 */

const MONEY_PATTERN = "^-?\\d{1,12}(\\.\\d{1,2})?$";
const CURRENCY_PATTERN = "^[A-Za-z]{3}$";

/** Which pool of real ids a UUID field (or a path's `{id}`) draws from. */
const ID_FIELDS: Record<string, RefKind> = {
  bank_account: "account",
  default_bank_account: "account",
  bank: "bank",
  budget: "budget",
  src_budget: "budget",
  dst_budget: "budget",
  category: "category",
  transaction: "transaction",
  uuid: "apiKey",
};

export type Mix = "plausible" | "mixed" | "hostile";

const weighted = <T>(...entries: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));

const ABSENT = Symbol("absent");

export class SchemaArbitraries {
  constructor(private readonly document: OpenApiDocument) {}

  /** A value for `schema` in field `name`: plausible, hostile, or an object mixing both. */
  value(schema: JsonSchema, name: string, mix: Mix): fc.Arbitrary<unknown> {
    const resolved = resolveSchema(this.document, schema);
    if (mix === "hostile")
      return weighted([3, this.hostile(resolved, name)], [1, this.plausible(resolved, name, mix)]);
    if (isObjectSchema(resolved) || resolved.type === "array") return this.plausible(resolved, name, mix);
    if (mix === "mixed")
      return weighted([6, this.plausible(resolved, name, mix)], [1, this.hostile(resolved, name)]);
    return this.plausible(resolved, name, mix);
  }

  /** What a careful client would send for this field. */
  plausible(schema: JsonSchema, name: string, mix: Mix, idKind?: RefKind): fc.Arbitrary<unknown> {
    const s = resolveSchema(this.document, schema);
    if (Array.isArray(s.anyOf)) {
      const all = s.anyOf as JsonSchema[];
      const branches = all.filter((b) => b.type !== "null").map((b) => this.plausible(b, name, mix, idKind));
      // null is a legal choice but rarely the interesting one.
      return branches.length < all.length
        ? weighted([4, fc.oneof(...branches)], [1, fc.constant(null)])
        : fc.oneof(...branches);
    }
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    if ("const" in s) return fc.constant(s.const);
    switch (s.type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return this.integer(s, name);
      case "number":
        return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
      case "string":
        return this.string(s, name, idKind);
      case "array": {
        const items = (s.items as JsonSchema | undefined) ?? {};
        const maxLength = Math.min(Number(s.maxItems ?? 4), 4);
        return fc.array(this.value(items, singular(name), mix), { maxLength });
      }
      case "object":
        return this.object(s, mix, name);
      default:
        return isObjectSchema(s) ? this.object(s, mix, name) : fc.jsonValue({ maxDepth: 3 });
    }
  }

  /** Anything but what the field asks for, biased to its type's edges. */
  hostile(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
    const s = resolveSchema(this.document, schema);
    const edges: fc.Arbitrary<unknown>[] = [];
    const branches = Array.isArray(s.anyOf) ? (s.anyOf as JsonSchema[]) : [s];
    for (const branch of branches) {
      const b = resolveSchema(this.document, branch);
      if (b.pattern === MONEY_PATTERN) edges.push(hostileMoney);
      else if (b.format === "uuid" || ID_FIELDS[name]) edges.push(hostileUuid);
      else if (b.format === "date" || isDateName(name)) edges.push(hostileDate);
      else if (b.type === "integer") edges.push(hostileInteger);
      else if (b.type === "boolean") edges.push(hostileBoolean);
      else if (Array.isArray(b.enum))
        edges.push(
          fc.constantFrom(...(b.enum as unknown[])).map((v) => (typeof v === "string" ? caseFlip(v) : v)),
        );
      if (typeof b.maxLength === "number" && b.maxLength > 0) {
        edges.push(fc.constantFrom(huge(b.maxLength), huge(b.maxLength + 1)));
      }
      if (typeof b.maxItems === "number") {
        const item = (b.items as JsonSchema | undefined) ?? {};
        edges.push(
          fc.array(this.plausible(item, singular(name), "plausible"), { minLength: 0, maxLength: 3 }),
        );
        edges.push(fc.constant(Array.from({ length: Math.min(b.maxItems + 1, 20_001) }, () => "x")));
      }
    }
    return weighted(
      [3, edges.length > 0 ? fc.oneof(...edges) : hostileString],
      [2, hostileString],
      [2, wrongType],
    );
  }

  private integer(s: JsonSchema, name: string): fc.Arbitrary<number> {
    if (name === "page") return weighted([5, fc.constant(1)], [2, fc.integer({ min: 2, max: 4 })]);
    if (name === "page_size") return fc.integer({ min: 1, max: 600 });
    if (name === "expiry_days") return fc.integer({ min: 1, max: 3650 });
    const min = Math.max(Number(s.minimum ?? -100), -100);
    const max = Math.min(Number(s.maximum ?? 100), 100);
    return fc.integer({ min, max: Math.max(min, max) });
  }

  private string(s: JsonSchema, name: string, idKind?: RefKind): fc.Arbitrary<string> {
    if (s.format === "uuid") {
      const kind = idKind ?? ID_FIELDS[name] ?? "budget";
      return weighted([12, ref(kind)], [1, hostileUuid]);
    }
    if (s.pattern === MONEY_PATTERN) return plausibleMoney;
    if (s.pattern === CURRENCY_PATTERN) return currencies;
    if (s.format === "date") return plausibleDate;
    if (isDateName(name)) return plausibleDateTime;
    const semantic = semanticString(name);
    if (semantic) return semantic;
    if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern));
    const maxLength = Math.min(Number(s.maxLength ?? 30), 30);
    const minLength = Math.min(Number(s.minLength ?? 0), maxLength);
    return plausibleText.filter((t) => t.length >= minLength && t.length <= maxLength);
  }

  private object(s: JsonSchema, mix: Mix, name: string): fc.Arbitrary<unknown> {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required ?? []) as string[]);
    const fields = Object.entries(properties).map(([key, schema]) => {
      const value = this.value(schema, key, mix);
      const keep = required.has(key) ? 20 : 6;
      const drop = required.has(key) ? 1 : 4;
      return weighted<unknown>([keep, value], [drop, fc.constant(ABSENT)]).map((v) => [key, v] as const);
    });
    const extra = s.additionalProperties;
    const dictionary =
      extra && typeof extra === "object" && Object.keys(properties).length === 0
        ? fc.dictionary(
            // `splits` is keyed by budget id; provider records by anything at all.
            name === "splits"
              ? weighted([10, ref("budget")], [2, ref("unallocated")], [1, hostileUuid])
              : fc.string({ maxLength: 12 }),
            this.value(extra as JsonSchema, "", mix),
            { maxKeys: 4 },
          )
        : fc.constant({});
    const unknownFields = weighted<Record<string, unknown>>(
      [8, fc.constant({})],
      [
        1,
        fc.dictionary(fc.constantFrom("unknown", "id", "owner", "balance", "is_staff", "actor"), wrongType),
      ],
    );
    return fc.tuple(fc.tuple(...fields), dictionary, unknownFields).map(([entries, dict, unknown]) => {
      const out: Record<string, unknown> = { ...unknown, ...(dict as Record<string, unknown>) };
      for (const [key, value] of entries) if (value !== ABSENT) out[key] = value;
      return out;
    });
  }
}

function semanticString(name: string): fc.Arbitrary<string> | null {
  if (name === "funding_schedule" || name === "recurrence_schedule") return schedules;
  if (name === "timezone") return timezones;
  // Links to a receipt: https only (other schemes are refused), so most are https.
  if (name === "image" || name === "document")
    return weighted(
      [4, fc.nat(99).map((n) => `https://receipts.example.com/${n}.jpg`)],
      [1, fc.constantFrom("javascript:alert(1)", "data:text/html,<b>x</b>", "http://example.com/a.png", "")],
    );
  if (name === "email" || name === "invitee_email" || name === "new_email")
    return weighted(
      [5, ref("email")],
      [3, ref("otherEmail")],
      [2, fc.nat(50).map((n) => `fuzz-${n}@example.com`)],
      [1, fc.constantFrom("not-an-email", "a@b", "A@EXAMPLE.COM", "x@example.com\n", "@example.com")],
    );
  if (name === "password" || name === "current_password")
    return weighted([6, ref("password")], [1, fc.constant(STRONG_PASSWORD)], [1, fc.constant("wrong")]);
  if (name === "new_password" || name === "confirm_password")
    return weighted([6, fc.constant(STRONG_PASSWORD)], [1, fc.constantFrom("password", "123", "a")]);
  if (name === "username")
    return weighted([4, ref("username")], [2, ref("otherUsername")], [1, plausibleText]);
  if (name === "token")
    return weighted([4, ref("invitation")], [1, fc.stringMatching(/^[A-Za-z0-9_-]{20,43}$/)]);
  if (name === "channel") return fc.constantFrom("email", "Email", "sms", "");
  if (name === "kind")
    return fc.constantFrom(
      "funding_complete",
      "import_complete",
      "transaction_posted",
      "balance_mismatch",
      "password_changed",
      "api_key_expiring",
      "nope",
    );
  if (name === "auto_spend" || name === "category" || name === "category_group")
    return weighted([4, ref("categoryName")], [1, plausibleText]);
  if (name === "search") return weighted([3, plausibleText], [1, ref("categoryName")]);
  return null;
}

function isDateName(name: string) {
  return /(_date|^date_|_through$|^as_of$|^after$|^before$|_at$|^posted_date_(from|to)$)/.test(name);
}

function isObjectSchema(s: JsonSchema) {
  return s.type === "object" || (s.type === undefined && s.properties !== undefined);
}

/** The name an array's items are generated under (auto_spend's items are category names). */
const singular = (name: string) => (name === "auto_spend" ? "auto_spend" : `${name}[]`);

function caseFlip(value: string) {
  const flipped = value === value.toUpperCase() ? value.toLowerCase() : value.toUpperCase();
  return flipped === value ? `${value} ` : flipped;
}
