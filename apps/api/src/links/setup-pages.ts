import { DEFAULT_TIME_ZONE } from "@allot/db/schema/users";
import { checkSetupToken } from "@allot/domain/setup/check-setup-token";
import { completeSetup, type SetupInput } from "@allot/domain/setup/complete-setup";
import { Gone, NotFound, ValidationFailed } from "@allot/domain/shared/errors";
import { NON_FIELD_ERRORS } from "@allot/domain/shared/validation";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { requestMetaOf } from "../http/request-meta";
import type { AppServices } from "../trpc/context";
import { segment } from "./call-api";
import { formField } from "./form-field";
import { html } from "./html";
import { sendPage } from "./layout";

type SetupRequest = FastifyRequest<{ Params: { token: string }; Body: unknown }>;
type Field = Exclude<keyof SetupInput, "token">;
type Values = Record<Field, string>;

interface FieldSpec {
  name: Field;
  label: string;
  type: "email" | "password" | "text";
  autocomplete: string;
  required?: boolean;
  list?: string;
  hint?: string;
}

const USER_FIELDS: FieldSpec[] = [
  {
    name: "email",
    label: "Email",
    type: "email",
    autocomplete: "email",
    required: true,
    hint: "Also your username.",
  },
  { name: "name", label: "Your name", type: "text", autocomplete: "name", hint: "Optional." },
  { name: "password", label: "Password", type: "password", autocomplete: "new-password", required: true },
  {
    name: "confirm_password",
    label: "Confirm the password",
    type: "password",
    autocomplete: "new-password",
    required: true,
  },
  {
    name: "timezone",
    label: "Time zone",
    type: "text",
    autocomplete: "off",
    list: "time-zones",
    hint: "An IANA name such as Europe/Berlin: scheduled funding runs at your local time.",
  },
];

const BANK_FIELDS: FieldSpec[] = [
  {
    name: "bank_name",
    label: "Bank name",
    type: "text",
    autocomplete: "off",
    hint: "Leave it empty to skip.",
  },
  {
    name: "bank_currency",
    label: "Currency",
    type: "text",
    autocomplete: "off",
    hint: "ISO 4217, e.g. USD.",
  },
];

const FIELDS = [...USER_FIELDS, ...BANK_FIELDS];

const EMPTY: Values = Object.fromEntries(FIELDS.map(({ name }) => [name, ""])) as Values;
const DEFAULTS: Values = { ...EMPTY, timezone: DEFAULT_TIME_ZONE, bank_currency: "USD" };

// Suggestions for the time-zone box without a script: the browser offers them as one types.
const TIME_ZONE_OPTIONS = html`<datalist id="time-zones">${Intl.supportedValuesOf("timeZone").map(
  (zone) => html`<option value="${zone}">`,
)}</datalist>`;

const TITLE = "Set up Allot";

function input(spec: FieldSpec, value: string, errors: string[]) {
  const { name, label, type, autocomplete, required, list, hint } = spec;
  const described = [...(hint ? [`${name}-hint`] : []), ...(errors.length > 0 ? [`${name}-error`] : [])];
  return html`<label for="${name}">${label}</label>
<input type="${type}" id="${name}" name="${name}" autocomplete="${autocomplete}"${
    type === "password" ? "" : html` value="${value}"`
  }${list ? html` list="${list}"` : ""}${required ? " required" : ""}${
    errors.length > 0 ? html` aria-invalid="true"` : ""
  }${described.length > 0 ? html` aria-describedby="${described.join(" ")}"` : ""}>
${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : ""}
${errors.length > 0 ? html`<p class="error" id="${name}-error">${errors.join(" ")}</p>` : ""}`;
}

// The passwords typed are never echoed back into the page; the other fields are, to be corrected.
function sendForm(
  reply: FastifyReply,
  token: string,
  status: number,
  values: Values,
  errors: Record<string, string[]> = {},
) {
  const general = errors[NON_FIELD_ERRORS] ?? [];
  const inputs = (specs: FieldSpec[]) =>
    specs.map((spec) => input(spec, values[spec.name], errors[spec.name] ?? []));
  return sendPage(
    reply,
    status,
    TITLE,
    html`<p>Allot has no users yet. Create the first one: it gets staff rights, and this link stops working.</p>
${general.length > 0 ? html`<div class="notice" role="alert">${general.map((m) => html`<p>${m}</p>`)}</div>` : ""}
<form class="stacked" method="post" action="/links/setup/${segment(token)}">
${inputs(USER_FIELDS)}
${TIME_ZONE_OPTIONS}
<fieldset>
<legend>A first bank (optional)</legend>
<p class="hint">Banks are shared reference data: every user opens accounts at one of them.</p>
${inputs(BANK_FIELDS)}
</fieldset>
<button type="submit">Create the user</button>
</form>`,
  );
}

/** Shell-quoted for a POSIX shell: single quotes, with any inside closed and escaped. */
const shellQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function sendDone(
  reply: FastifyReply,
  publicBaseUrl: string,
  { user, bank }: Awaited<ReturnType<typeof completeSetup>>,
) {
  const base = publicBaseUrl.replace(/\/+$/, "");
  const body = JSON.stringify({ email: user.email, password: "YOUR PASSWORD" });
  return sendPage(
    reply,
    200,
    "Allot is set up",
    html`<p class="success" role="status">You are the first user, <strong>${user.email}</strong>, with staff
rights.${bank ? html` The bank <strong>${bank.name}</strong> (${bank.default_currency}) is ready for accounts.` : ""}</p>
<p>Sign in from the command line (in the repository, <code>pnpm cli</code> runs <code>allot</code>); it asks
for the password:</p>
<pre>allot login --url ${shellQuoted(base)} --email ${shellQuoted(user.email)}</pre>
<p>Or ask the API for a token directly:</p>
<pre>curl -s -X POST ${shellQuoted(`${base}/api/token/`)} -H 'content-type: application/json' \\
  -d ${shellQuoted(body)}</pre>
<p>More users and banks: <code>pnpm cli admin create-user</code>, <code>pnpm cli admin create-bank</code>,
or invite co-owners to an account. This link no longer works.</p>`,
  );
}

/** The refusal of a link that cannot create the first user (any more), as its own page. */
function sendRefused(reply: FastifyReply, refusal: NotFound | Gone) {
  if (refusal instanceof Gone) {
    return sendPage(
      reply,
      410,
      "Allot is already set up",
      html`<p class="notice" role="alert">${refusal.message}</p>
<p>Sign in with the first user's email and password (<code>allot login</code>). Staff add more users with
<code>pnpm cli admin create-user</code>.</p>`,
    );
  }
  return sendPage(
    reply,
    404,
    "Link not found",
    html`<p class="notice" role="alert">${refusal.message}</p>
<p>While no user exists, each start of the server prints a new first-run link and retires the earlier
ones: copy the last one it printed, whole, into the browser.</p>`,
  );
}

const refusal = (error: unknown) => (error instanceof NotFound || error instanceof Gone ? error : null);

/**
 * `/links/setup/{token}`: the first-run page (docs/spec/extensions.md §6), printed by the server as
 * it starts while no user exists. GET shows the form while the link is good; the POST creates the
 * first user (and bank) through the domain's first-run use case. There is no JSON endpoint behind
 * it: the page is the only way in before anyone can sign in, and it acts on no one's behalf.
 */
export function registerSetupPages(links: FastifyInstance, { db, config }: AppServices) {
  links.get("/setup/:token", async (request: SetupRequest, reply) => {
    try {
      await checkSetupToken(db, request.params.token);
    } catch (error) {
      const refused = refusal(error);
      if (!refused) throw error;
      return sendRefused(reply, refused);
    }
    return sendForm(reply, request.params.token, 200, DEFAULTS);
  });

  links.post("/setup/:token", async (request: SetupRequest, reply) => {
    const { token } = request.params;
    const values = Object.fromEntries(
      FIELDS.map(({ name }) => [name, formField(request.body, name)]),
    ) as Values;
    try {
      const created = await completeSetup(
        { db, request: requestMetaOf(request), now: new Date(), services: {} },
        { token, ...values },
      );
      return sendDone(reply, config.publicBaseUrl, created);
    } catch (error) {
      if (error instanceof ValidationFailed) return sendForm(reply, token, 400, values, error.fields);
      const refused = refusal(error);
      if (!refused) throw error;
      return sendRefused(reply, refused);
    }
  });
}
