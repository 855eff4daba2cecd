import { emailOutbox } from "@allot/db/schema/email-outbox";
import { openedOutboxRow } from "@allot/domain/testing/opened-outbox-row";
import { desc, eq } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { aBank, aBudget, aCategory, anAccount, aTransaction } from "../testing/fixtures";
import type { TestApp, TestUser } from "../testing/test-app";
import { type RefKind, TOKEN_PATTERN } from "./fuzz-values";
import type { FuzzOperation } from "./openapi-operations";
import type { RequestPlan } from "./request-generator";

type Body = Record<string, unknown> & { results?: Record<string, unknown>[] };

/**
 * The fuzzing user and everything they own, kept alive through HTTP: the pools of real ids the
 * generated requests' tokens resolve to, credentials re-made when a request ended them (logout,
 * a changed password, revoked keys), and objects re-made when a request deleted them.
 */
export class FuzzWorld {
  private user!: TestUser;
  private apiKey = "";
  private refreshCookie = "";
  private other!: TestUser & { account: string; budget: string; transaction: string; category: string };
  private readonly pools = new Map<RefKind, string[]>();
  private usdBank = "";
  /** Fuzzing users made so far (a new one when a request left the old one unable to log in). */
  usersMade = 0;

  constructor(private readonly t: TestApp) {}

  private get app() {
    return this.t.app;
  }

  private get db() {
    return this.t.db;
  }

  async setUp() {
    const t = this.t;
    this.usdBank = (await aBank(t, { name: "Fuzz Bank", currency: "USD" })).id;
    await aBank(t, { name: "Fuzz Euro Bank", currency: "EUR" });
    const other = await t.user();
    const account = await anAccount(t, other, {
      name: "Other's checking",
      bank: this.usdBank,
      balance: "500.00",
    });
    const budget = await aBudget(t, other, account, {
      name: "Other's goal",
      target_balance: "100.00",
      funding_amount: "10.00",
    });
    const transaction = await aTransaction(t, other, account, {
      amount: "-5.00",
      transaction_date: "2024-03-01",
      transaction_type: "pin_purchase",
      raw_description: "Other's coffee",
    });
    const category = await aCategory(t, other, { group: "Other", name: "Secret" });
    this.other = {
      ...other,
      account: String(account.id),
      budget: String(budget.id),
      transaction: String(transaction.id),
      category: String(category.id),
    };
    await this.newUser();
    // One invitation the fuzzing user may answer (accept makes them an owner of the other's account).
    await this.send(other.bearer, "POST", `/v1/bank-accounts/${account.id}/invite/`, {
      invitee_email: this.user.email,
    });
  }

  /** A fresh fuzzing user: used at set-up, and when a request made the old one unusable. */
  private async newUser() {
    this.user = await this.t.user();
    this.usersMade += 1;
    await this.login();
    await this.newApiKey();
    await this.replenish();
  }

  // ---- turning a plan into a request --------------------------------------------------------------

  /** The request a plan stands for, with every token replaced by what it names right now. */
  injectOptions(operation: FuzzOperation, plan: RequestPlan): InjectOptions {
    let path = withEncodedDelimiter(operation.path, plan.encodedDelimiter).replace(
      /\{(\w+)\}/g,
      (_, name: string) => {
        const value = this.resolve(String(plan.pathValues[name] ?? ""));
        return /^(%|\.\.?$)/.test(value) ? value : percentEncode(value);
      },
    );
    if (plan.dropTrailingSlash) path = path.replace(/\/$/, "");
    const query = plan.query
      .map(([name, value]) => `${percentEncode(name)}=${percentEncode(this.resolve(queryText(value)))}`)
      .join("&");
    const headers: Record<string, string> = {};
    const authorization = this.authorization(plan);
    if (authorization !== null) headers.authorization = authorization;
    if (plan.cookie && this.refreshCookie) headers.cookie = `refresh_token=${this.refreshCookie}`;

    const options: InjectOptions = {
      method: operation.method,
      url: `/api${path}${query ? `?${query}` : ""}`,
      headers,
    };
    const body = plan.body;
    if (!body) return options;
    if (body.kind === "text") {
      if (body.contentType !== null) headers["content-type"] = body.contentType;
      options.payload = this.resolve(body.text);
    } else if (body.kind === "json") {
      headers["content-type"] = "application/json";
      options.payload = JSON.stringify(this.resolveDeep(body.value)) ?? "null";
    } else if (body.kind === "form") {
      headers["content-type"] = "application/x-www-form-urlencoded";
      options.payload = new URLSearchParams(formFields(this.resolveDeep(body.value))).toString();
    } else {
      const boundary = "----allot-fuzz-boundary";
      headers["content-type"] = `multipart/form-data; boundary=${boundary}`;
      const parts = formFields(this.resolveDeep(body.value)).map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, "_")}"\r\n\r\n${value}\r\n`,
      );
      options.payload = `${parts.join("")}--${boundary}--\r\n`;
    }
    return options;
  }

  private authorization(plan: RequestPlan): string | null {
    switch (plan.auth) {
      case "bearer":
        return this.user.bearer;
      case "apiKey":
        return this.apiKey;
      case "otherUser":
        return this.other.bearer;
      case "garbage":
        return plan.garbageAuthorization ?? "Bearer nonsense";
      default:
        return null;
    }
  }

  private resolve(text: string): string {
    return text.replace(TOKEN_PATTERN, (_, kind: string, n: string) => {
      if (kind === "huge") return "A".repeat(Number(n));
      const pool = this.pool(kind as RefKind);
      return pool[Number(n) % pool.length] ?? "00000000-0000-4000-8000-000000000000";
    });
  }

  private resolveDeep(value: unknown): unknown {
    if (typeof value === "string") return this.resolve(value);
    if (Array.isArray(value)) return value.map((v) => this.resolveDeep(v));
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) out[this.resolve(key)] = this.resolveDeep(v);
      return out;
    }
    return value;
  }

  private pool(kind: RefKind): string[] {
    switch (kind) {
      case "email":
        return [this.user.email];
      case "password":
        return [this.user.password];
      case "username":
        return [this.user.username];
      case "otherEmail":
        return [this.other.email];
      case "otherUsername":
        return [this.other.username];
      case "otherAccount":
        return [this.other.account];
      case "otherBudget":
        return [this.other.budget];
      case "otherTransaction":
        return [this.other.transaction];
      case "otherCategory":
        return [this.other.category];
      default:
        return this.pools.get(kind) ?? [];
    }
  }

  // ---- after a request -----------------------------------------------------------------------------

  /**
   * Learns from an answer: a new refresh cookie, a changed password. Says what may need repair:
   * the credentials (a 401 to a credential that worked, or a request that can end sessions or
   * keys) or the objects (something was deleted or archived).
   */
  observe(
    operation: FuzzOperation,
    plan: RequestPlan,
    options: InjectOptions,
    response: LightMyRequestResponse,
  ): "credentials" | "objects" | null {
    const cookie = response.cookies.find((c) => c.name === "refresh_token");
    if (cookie?.value) this.refreshCookie = cookie.value;
    const ok = response.statusCode < 300;
    if (ok && operation.path === "/v1/users/me/change-password/") {
      const sent = parseSent(options);
      if (typeof sent?.new_password === "string") this.user.password = sent.new_password;
    }
    if (response.statusCode === 401 && (plan.auth === "bearer" || plan.auth === "apiKey"))
      return "credentials";
    if (ok && /revoke|logout|change-|password-reset|invitations/.test(operation.path)) return "credentials";
    if (ok && (operation.method === "DELETE" || /archive/.test(operation.path))) return "objects";
    return null;
  }

  /** Makes sure both credentials work, re-making what a request ended. */
  async repairCredentials() {
    const me = await this.send(this.user.bearer, "GET", "/v1/users/me/");
    if (me.status === 401 && !(await this.refresh()) && !(await this.login())) {
      await this.newUser();
      return;
    }
    const viaKey = await this.send(this.apiKey, "GET", "/v1/users/me/");
    if (viaKey.status === 401) await this.newApiKey();
  }

  /** A new access token from the refresh cookie: no password hashing, unlike a login. */
  private async refresh(): Promise<boolean> {
    if (!this.refreshCookie) return false;
    const response = await this.app.inject({
      method: "POST",
      url: "/api/token/refresh/",
      headers: { cookie: `refresh_token=${this.refreshCookie}` },
    });
    if (response.statusCode !== 200) return false;
    this.user.bearer = `Bearer ${response.json().access}`;
    const cookie = response.cookies.find((c) => c.name === "refresh_token");
    if (cookie) this.refreshCookie = cookie.value;
    return true;
  }

  private async login(): Promise<boolean> {
    const response = await this.app.inject({
      method: "POST",
      url: "/api/token/",
      payload: { email: this.user.email, password: this.user.password },
    });
    if (response.statusCode !== 200) return false;
    this.user.bearer = `Bearer ${response.json().access}`;
    const cookie = response.cookies.find((c) => c.name === "refresh_token");
    if (cookie) this.refreshCookie = cookie.value;
    return true;
  }

  private async newApiKey() {
    this.apiKey = await this.t.apiKey(this.user, "fuzz");
  }

  /** Re-reads every pool, first re-making what the user should always have. */
  async replenish() {
    const bearer = this.user.bearer;
    let accounts = await this.list("/v1/bank-accounts/?page_size=500");
    if (accounts.length === 0) {
      await anAccount(this.t, this.user, { name: "Fuzz checking", bank: this.usdBank, balance: "10000.00" });
      accounts = await this.list("/v1/bank-accounts/?page_size=500");
    }
    const owned = accounts.filter((a) => (a.owners as unknown[] | undefined)?.length);
    const first = String((owned[0] ?? accounts[0])?.id);
    let budgets = await this.list("/v1/budgets/?page_size=500&archived=false");
    if (budgets.filter((b) => b.bank_account === first).length < 3) {
      await this.send(bearer, "POST", "/v1/budgets/", {
        name: `Goal ${budgets.length}`,
        bank_account: first,
        budget_type: "G",
        funding_type: "F",
        target_balance: "500.00",
        funding_amount: "25.00",
        funding_schedule: "RRULE:FREQ=WEEKLY",
      });
      await this.send(bearer, "POST", "/v1/budgets/", {
        name: `Bills ${budgets.length}`,
        bank_account: first,
        budget_type: "R",
        funding_type: "D",
        target_balance: "120.00",
        recurrence_schedule: "RRULE:FREQ=MONTHLY",
        funding_schedule: "DTSTART:20240101\nRRULE:FREQ=WEEKLY",
      });
      budgets = await this.list("/v1/budgets/?page_size=500");
    }
    let transactions = await this.list("/v1/transactions/?page_size=200");
    if (transactions.length < 4) {
      for (const [amount, pending] of [
        ["-12.50", false],
        ["250.00", false],
        ["-7.25", true],
      ] as const) {
        await this.send(bearer, "POST", "/v1/transactions/", {
          bank_account: first,
          amount,
          pending,
          transaction_date: "2024-05-02",
          transaction_type: "ach",
          raw_description: `Fuzz ${amount}`,
        });
      }
      transactions = await this.list("/v1/transactions/?page_size=200");
    }
    let categories = await this.list("/v1/transaction-categories/?scope=mine&page_size=100");
    if (categories.length === 0) {
      await this.send(bearer, "POST", "/v1/transaction-categories/", { group: "Fuzz", name: "Things" });
      categories = await this.list("/v1/transaction-categories/?scope=mine&page_size=100");
    }
    const globals = await this.list("/v1/transaction-categories/?scope=global&page_size=5&search=Food");
    const transfers = await this.list("/v1/internal-transactions/?page_size=50");
    const occurrences = await this.list("/v1/funding-occurrences/?page_size=50");
    const keys = await this.list("/v1/users/me/api-keys/?page_size=50");
    const banks = await this.list("/v1/banks/?page_size=10");
    const invitations = (await this.send(bearer, "GET", `/v1/bank-accounts/${first}/invitations/`)).body;
    const received = (await this.send(bearer, "GET", "/v1/users/me/invitations/")).body;

    // The public invitation endpoints take only the secret emailed to the invitee (the listed
    // `token` is the owners' handle): the newest invitation emails, read from the outbox.
    const mailed = await this.db
      .select({ textBody: emailOutbox.textBody, htmlBody: emailOutbox.htmlBody })
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "invitation"))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(5);
    const secrets = mailed
      .map(openedOutboxRow)
      .flatMap((m) => /\/links\/invitations\/([A-Za-z0-9_-]+)/.exec(m.textBody ?? "")?.[1] ?? []);

    const ids = (rows: Record<string, unknown>[], field = "id") =>
      rows.flatMap((r) => (typeof r[field] === "string" ? [r[field] as string] : []));
    this.pools.set("account", ids(accounts));
    this.pools.set("unallocated", ids(accounts, "unallocated_budget"));
    this.pools.set("budget", ids(budgets));
    this.pools.set("transaction", ids(transactions));
    this.pools.set(
      "allocation",
      transactions.flatMap((t) => ids((t.allocations as Record<string, unknown>[] | undefined) ?? [])),
    );
    this.pools.set("category", [...ids(categories), ...ids(globals)]);
    this.pools.set("categoryName", [...ids(categories, "full_name"), ...ids(globals, "full_name")]);
    this.pools.set("transfer", ids(transfers));
    this.pools.set("occurrence", ids(occurrences));
    this.pools.set("apiKey", ids(keys, "uuid"));
    this.pools.set("bank", ids(banks));
    this.pools.set("invitation", [
      ...ids(Array.isArray(invitations) ? invitations : [], "token"),
      ...ids(Array.isArray(received) ? received : [], "token"),
      ...secrets,
    ]);
  }

  /** The results of one page of a list, as the fuzzing user. */
  private async list(path: string): Promise<Record<string, unknown>[]> {
    const reply = await this.send(this.user.bearer, "GET", path);
    if (reply.status !== 200) throw new Error(`fuzz world: GET ${path} answered ${reply.status}`);
    return (reply.body as Body).results ?? [];
  }

  private async send(authorization: string, method: string, path: string, payload?: object) {
    const response = await this.app.inject({
      method: method as InjectOptions["method"],
      url: `/api${path}`,
      headers: { authorization },
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: response.statusCode, body: response.body ? (response.json() as unknown) : null };
  }
}

/** encodeURIComponent, except that a lone surrogate goes out as the bytes of one (invalid UTF-8). */
function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return Array.from(text, (c) => (/[\ud800-\udfff]/.test(c) ? "%ED%A0%80" : encodeURIComponent(c))).join(
      "",
    );
  }
}

function queryText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A body as form fields: scalars as text, lists as repeated fields, objects as JSON text. */
function formFields(value: unknown): [string, string][] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [["value", queryText(value)]];
  return Object.entries(value).flatMap(([key, v]) =>
    Array.isArray(v) ? v.map((item) => [key, queryText(item)] as [string, string]) : [[key, queryText(v)]],
  );
}

function parseSent(options: InjectOptions): Record<string, unknown> | null {
  const payload = options.payload;
  if (typeof payload !== "string") return null;
  if (String(options.headers?.["content-type"]).startsWith("multipart/")) {
    const fields = payload.matchAll(/name="([^"]*)"\r\n\r\n([^\r]*)\r\n/g);
    return Object.fromEntries(Array.from(fields, (m) => [m[1], m[2]]));
  }
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return Object.fromEntries(new URLSearchParams(payload));
  }
}

/**
 * The path template with one of its own delimiters (outside `{…}`) percent-encoded, once or twice:
 * `/v1/password-reset/{token}/confirm/` → `/v1/password%2Dreset/{token}/confirm/`.
 */
function withEncodedDelimiter(template: string, spelling: RequestPlan["encodedDelimiter"]): string {
  if (!spelling) return template;
  const at: number[] = [];
  let depth = 0;
  for (const [i, char] of [...template].entries()) {
    if (char === "{") depth += 1;
    else if (char === "}") depth -= 1;
    else if (depth === 0 && "-./".includes(char)) at.push(i);
  }
  const i = at[spelling.nth % at.length];
  if (i === undefined) return template;
  const hex = (template.charCodeAt(i) ?? 0).toString(16).toUpperCase();
  return `${template.slice(0, i)}${spelling.twice ? "%25" : "%"}${hex}${template.slice(i + 1)}`;
}
