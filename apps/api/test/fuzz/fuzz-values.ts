import fc from "fast-check";

/*
 * The values the generator draws from: plausible ones (so that requests get past validation and
 * reach the use cases) and hostile ones (wrong types, boundaries, injections, huge and deep input).
 *
 * Values that depend on the running world (ids of objects, the user's email and password) are
 * written as tokens, `⟦kind#n⟧`, and resolved just before the request is sent: the n-th (mod size)
 * entry of that pool at that moment. So generation depends on the seed alone.
 */

export type RefKind =
  | "account"
  | "budget"
  | "unallocated"
  | "transaction"
  | "category"
  | "allocation"
  | "transfer"
  | "occurrence"
  | "apiKey"
  | "invitation"
  | "bank"
  | "email"
  | "password"
  | "username"
  | "categoryName"
  | "otherAccount"
  | "otherBudget"
  | "otherTransaction"
  | "otherCategory"
  | "otherEmail"
  | "otherUsername";

export const TOKEN_PATTERN = /⟦(\w+)#(\d+)⟧/g;

export const ref = (kind: RefKind): fc.Arbitrary<string> => fc.nat(999).map((n) => `⟦${kind}#${n}⟧`);

/** A string of `length` characters, made only when the request is sent (plans stay small). */
export const huge = (length: number) => `⟦huge#${length}⟧`;

const weighted = <T>(...entries: [number, fc.Arbitrary<T>][]) =>
  fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));

export const STRONG_PASSWORD = "Quartz-Meadow-Lantern-42";

// ---- money ---------------------------------------------------------------------------------------

const cents = (min: number, max: number) =>
  fc.integer({ min, max }).map((n) => {
    const sign = n < 0 ? "-" : "";
    const abs = Math.abs(n);
    return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  });

/** Amounts the service should accept (small, so balances stay far from the 12-digit limit). */
export const plausibleMoney = weighted<string>(
  [6, cents(1, 50_000)],
  [3, cents(-50_000, -1)],
  [1, fc.constantFrom("0", "0.00", "1", "5.5", "0.01", "-0.01", "100")],
);

/** 12 integer digits is the limit; 13 digits, 3 decimals and every other spelling is hostile. */
export const hostileMoney = fc.oneof(
  fc.constantFrom(
    "999999999999.99",
    "-999999999999.99",
    "999999999999",
    "9999999999999",
    "-9999999999999.00",
    "1234567890123.45",
    "0.001",
    "1.005",
    "-12.345",
    "1e3",
    "1E-2",
    "1,000.00",
    " 1.00",
    "1.00 ",
    "+1.00",
    "1.",
    ".5",
    "-",
    "--1",
    "0x10",
    "Infinity",
    "-Infinity",
    "NaN",
    "-0",
    "-0.00",
    "00000000000001.00",
    "１２.００",
    "12.50€",
    "",
  ),
  fc.constantFrom(12.5, -1, 0, 1e13, 12.345, 1e308, -1e-7, 99999999999999.98),
  fc.bigInt({ min: 10n ** 12n, max: 10n ** 20n }).map((n) => `${n}.00`),
);

// ---- dates ----------------------------------------------------------------------------------------

const plausibleDay = fc
  .date({ min: new Date("2023-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

export const plausibleDate = plausibleDay;

export const plausibleDateTime = weighted<string>(
  [3, plausibleDay],
  [2, plausibleDay.map((d) => `${d}T12:34:56Z`)],
  [1, plausibleDay.map((d) => `${d}T08:00:00.123-07:00`)],
);

export const hostileDate = fc.constantFrom(
  "0100-01-01",
  "0100-01-02",
  "9999-12-29",
  "9999-12-30",
  "9999-12-31",
  "0000-01-01",
  "0099-12-31",
  "0050-06-01",
  "2024-02-29",
  "2023-02-29",
  "2024-02-30",
  "2024-13-01",
  "2024-00-10",
  "2024-01-32",
  "24-01-01",
  "2024/01/01",
  "01/15/2024",
  "2024-1-5",
  "+010000-01-01T00:00:00Z",
  "-000001-01-01T00:00:00Z",
  "10000-01-01",
  "2024-01-01T24:00:00Z",
  "2024-01-01T23:59:60Z",
  "2024-01-01T00:00:00+25:00",
  "9999-12-31T23:59:59-14:00",
  "0100-01-01T00:00:00+01:00",
  "9999-12-29T23:59:59-14:00",
  // Local times read in the account's zone: one in a spring-forward gap, one that happens twice.
  "2024-03-10T02:30:00",
  "2024-11-03T01:30:00",
  "2024-01-01T00:00:00",
  "2024-01-01 00:00:00",
  "2024-W01-1",
  "2024-001",
  "now",
  "today",
  "1700000000",
  "1700000000000",
  "",
  " 2024-01-01",
  "2024-01-01\u0000",
);

// ---- ids ------------------------------------------------------------------------------------------

export const hostileUuid = fc.oneof(
  fc.uuid({ version: 4 }),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => u.replaceAll("-", "")),
  fc.uuid().map((u) => `{${u}}`),
  fc.uuid().map((u) => `${u}0`),
  fc.uuid().map((u) => u.slice(1)),
  fc.constantFrom(
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "00000000-0000-0000-0000-00000000000g",
    "not-a-uuid",
    "12345",
    "1",
    "0",
    "-1",
    "null",
    "",
    "c0ffee00-0000-1000-8000-000000000000",
    "c0ffee00-0000-9000-8000-000000000000",
    "c0ffee00-0000-4000-c000-000000000000",
  ),
  ref("otherAccount"),
  ref("otherBudget"),
  ref("otherTransaction"),
  ref("otherCategory"),
);

// ---- integers and booleans --------------------------------------------------------------------

export const hostileInteger = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    499,
    500,
    501,
    3650,
    3651,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53,
    -(2 ** 53),
    1e21,
    1.5,
    -0.5,
  ),
  fc.constantFrom("1", "0", "-1", "1e3", "0x10", "1.0", "", "9223372036854775808", "abc", "١٢"),
  fc.integer(),
);

export const hostileBoolean = fc.constantFrom(
  "true",
  "false",
  "1",
  "0",
  "yes",
  "no",
  "TRUE",
  "False",
  "",
  1,
  0,
  "on",
  "off",
);

// ---- strings -------------------------------------------------------------------------------------

const INJECTIONS = [
  "'; DROP TABLE budgets; --",
  "' OR '1'='1",
  '" OR ""="',
  "1; SELECT pg_sleep(0.01); --",
  "') UNION SELECT password_hash FROM users --",
  "%' OR 1=1 --",
  "\\",
  "\\'",
  "$$; select 1; $$",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "{{7*7}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, sent as text.
  "${7*7}",
  "#{7*7}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection payload, sent as text.
  "${jndi:ldap://127.0.0.1/a}",
  "../../../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "%s%s%s%n",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "null",
  "undefined",
  "NaN",
  "true",
  "[]",
  "{}",
  "0",
  "-1",
  "1e309",
];

const ODD_TEXT = [
  "",
  " ",
  "   padded   ",
  "\t\n\r",
  "a\u0000b",
  "\u0000",
  "\u202egnp.exe",
  "\u200b\u200c\u200d",
  "\ufeffBOM",
  "e\u0301\u0301\u0301",
  "😀👩‍👩‍👧‍👦",
  "ＡＢＣ１２３",
  "Ωмega ünïcödé 中文 العربية",
  "\ud800",
  "\udfff\ud800",
  "line1\nline2",
  "Food & Drink : Groceries",
  "Food & Drink:Groceries",
  " food  &  drink :  groceries ",
  ":",
  " : ",
  "Group :",
  ": Name",
];

/**
 * Control characters (issue 31): refused in names with a 400 on the field, kept in bank texts. A
 * terminal's title, clear screen and cursor moves, a header break, C1 controls, DEL, a lone tab.
 */
const CONTROL_TEXT = [
  "\u001b]0;pwned\u0007",
  "\u001b[2J\u001b[H",
  "\u001b[31mred\u001b[0m",
  "\u001b[1A\u001b[2K",
  "Rent\r\nBcc: evil@example.com",
  "Rent\rX",
  "tab\there",
  "del\u007f",
  "nel\u0085",
  "csi\u009b2J",
  "\u0007bell",
  "\u0008\u0008back",
];

/** Plausible text with a control character in it somewhere. */
const controlLaced = fc
  .tuple(
    fc.constantFrom("Groceries", "Rent", "Holiday fund", "POS 0042 CAFE"),
    fc.constantFrom(...CONTROL_TEXT),
  )
  .chain(([text, control]) =>
    fc.constantFrom(
      `${control}${text}`,
      `${text}${control}`,
      `${text.slice(0, 3)}${control}${text.slice(3)}`,
    ),
  );

/** Any text at all: random unicode, odd characters, injections, and (rarely) huge strings. */
export const hostileString = weighted<string>(
  [5, fc.constantFrom(...INJECTIONS, ...ODD_TEXT)],
  [2, fc.oneof(fc.constantFrom(...CONTROL_TEXT), controlLaced)],
  [3, fc.string({ unit: "binary", maxLength: 40 })],
  [2, fc.string({ unit: "grapheme", maxLength: 40 })],
  [1, fc.constantFrom(huge(129), huge(201), huge(1_001), huge(10_001), huge(100_000))],
  [1, fc.constantFrom(huge(1_000_000))],
);

/** Text that makes a good name or description. */
export const plausibleText = weighted<string>(
  [4, fc.constantFrom("Groceries", "Rent", "Holiday fund", "Coffee", "Car", "Gifts", "Emergency", "Books")],
  [2, fc.stringMatching(/^[A-Z][a-z]{2,12}( [a-z]{2,8}){0,2}$/)],
  [1, fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 20 })],
  [1, controlLaced],
);

const range = (n: number) => Array.from({ length: n }, (_, i) => i).join(",");

export const schedules = weighted<string>(
  [4, fc.constantFrom("RRULE:FREQ=MONTHLY", "RRULE:FREQ=WEEKLY;BYDAY=FR", "FREQ=MONTHLY;BYMONTHDAY=1")],
  [3, plausibleDay.map((d) => `DTSTART:${d.replaceAll("-", "")}\nRRULE:FREQ=WEEKLY`)],
  [
    2,
    fc.constantFrom(
      "RRULE:FREQ=DAILY",
      "RRULE:FREQ=DAILY;INTERVAL=1;COUNT=100000",
      "RRULE:FREQ=HOURLY",
      "RRULE:FREQ=MINUTELY",
      "RRULE:FREQ=SECONDLY",
      "RRULE:FREQ=YEARLY;BYMONTH=13",
      "RRULE:FREQ=MONTHLY;BYMONTHDAY=31",
      "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1",
      "RRULE:FREQ=WEEKLY;UNTIL=20200101",
      "DTSTART:99991231\nRRULE:FREQ=DAILY",
      "DTSTART:00010101\nRRULE:FREQ=DAILY",
      "DTSTART:20240101T000000Z\nRRULE:FREQ=WEEKLY",
      "DTSTART;TZID=Mars/Olympus:20240101T000000\nRRULE:FREQ=WEEKLY",
      "EXDATE:20240101\nRRULE:FREQ=DAILY",
      "RRULE:FREQ=WEEKLY\nRRULE:FREQ=DAILY",
      "RRULE:",
      "FREQ=",
      "RRULE:FREQ=DAILY;INTERVAL=0",
      "RRULE:FREQ=DAILY;INTERVAL=-1",
      "RRULE:FREQ=DAILY;INTERVAL=99999999999",
      "RRULE:FREQ=DAILY;BYSETPOS=0",
      "",
    ),
  ],
  // Issue 14: schedules that once froze the API (many firings a day, a DTSTART in 1900, rules
  // that never match, a sub-daily exception rule, timed or too many extra dates).
  [
    2,
    fc.constantFrom(
      `RRULE:FREQ=DAILY;BYHOUR=${range(24)};BYMINUTE=${range(60)};BYSECOND=${range(60)}`,
      "DTSTART:19000101\nRRULE:FREQ=DAILY",
      "DTSTART:19000101\nRRULE:FREQ=DAILY;COUNT=999999",
      "RRULE:FREQ=DAILY\nEXRULE:FREQ=SECONDLY",
      "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      "RRULE:FREQ=DAILY;BYWEEKNO=53;BYMONTH=6",
      "RRULE:FREQ=WEEKLY\nRDATE:20260101T000000Z,20260101T000001Z",
      `RRULE:FREQ=WEEKLY\nEXDATE:${Array(150).fill("20260101").join(",")}`,
      `RRULE:FREQ=DAILY\n${"EXRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30\n".repeat(6)}`,
    ),
  ],
);

export const timezones = fc.constantFrom(
  "America/Los_Angeles",
  "UTC",
  "Europe/Paris",
  "Pacific/Kiritimati",
  "Asia/Kathmandu",
  "Mars/Olympus",
  "+05:00",
  "utc",
  "EST5EDT",
  "Etc/GMT+12",
  "America/Argentina/ComodRivadavia",
);

export const currencies = weighted<string>(
  [8, fc.constantFrom("USD")],
  [2, fc.constantFrom("usd", "EUR", "XXX", "ZZZ", "US", "USDD", "U$D", "")],
);

/** JSON nested `depth` levels (arrays or objects), for the parser and for recursive code. */
export const deeplyNested = fc
  .tuple(fc.constantFrom(20, 127, 128, 129, 300), fc.boolean())
  .map(([depth, arrays]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
    return value;
  });

/** Any JSON value of the wrong kind for a field. */
export const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, [], {}, [1, 2], { a: 1 }, ["x"], [null]),
  fc.jsonValue({ maxDepth: 3 }),
  deeplyNested,
);

/** A JSON body nested far deeper than anything the generator holds as a value. */
export const deeplyNestedText = fc
  .tuple(fc.constantFrom(1_000, 10_000, 100_000), fc.constantFrom('{"a":', '{"splits":', "["))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`);

/** A JSON document that does not parse, for a JSON content type. */
export const brokenJson = fc.constantFrom(
  "{",
  '{"a":',
  '{"a":1,}',
  "{'a': 1}",
  '{"a": NaN}',
  '{"a": undefined}',
  '{"amount": 1.0.0}',
  "nul",
  "[1,2",
  '"unterminated',
  "\u0000",
  "\ufeff{}",
  '{"a":"\\u00"}',
  '{"a":"\\ud800"}',
  "{}}",
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
  "1e99999",
);

export const wrongContentTypes = fc.constantFrom(
  "text/plain",
  "application/xml",
  "text/html",
  "application/octet-stream",
  "image/png",
  "application/json-patch+json",
  "application/x-www-form-urlencoded; charset=utf-16",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/jsonx",
  ";",
  "",
);

const BOUNDARY = "----allot-fuzz-hostile";
const part = (name: string, value: string, file = false) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.bin"' : ""}\r\n\r\n${value}\r\n`;
const parts = (...each: string[]) => `${each.join("")}--${BOUNDARY}--\r\n`;

/** Multipart bodies past its bounds (413), with a file part (400) or no boundary (400): never a 5xx. */
export const hostileMultipart = fc.constantFrom(
  {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    text: parts(...Array.from({ length: 1_500 }, (_, i) => part(`f${i}`, "1"))),
  },
  {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    text: parts(part("file", huge(6 * 1024 * 1024), true)),
  },
  { contentType: `multipart/form-data; boundary=${BOUNDARY}`, text: parts(part("file", "tiny", true)) },
  {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    text: parts(part("name", huge(2 * 1024 * 1024))),
  },
  { contentType: "multipart/form-data", text: parts(part("name", "no boundary named")) },
  {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    text: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="cut"\r\n\r\nno end`,
  },
);

export const garbageAuthorization = fc.oneof(
  fc.constantFrom(
    "Bearer",
    "Bearer ",
    "Bearer abc.def.ghi",
    "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIn0.",
    "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwiZXhwIjoxfQ.c2lnbmF0dXJl",
    "Api-Key",
    "Api-Key allot_",
    "Api-Key allot_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "Api-Key ' OR 1=1 --",
    "Basic dXNlcjpwYXNz",
    "Token abc",
    "bearer lowercase",
    "Bearer \u00e9t\u00e9",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 60 }).map((s) => `Bearer ${s}`),
  fc.constantFrom(`Bearer ${"a".repeat(9_000)}`, `Api-Key ${"a".repeat(9_000)}`),
);
