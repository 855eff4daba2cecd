/*
 * The SDK README's TypeScript examples as files a strict tsc can check: each ```ts block becomes a
 * module, preceded by what the README's prose gives it (a client, an account, a webhook, the
 * caller's own helpers) unless the block declares or imports the name itself.
 */

/** What the README's examples take as given, each with the declaration that types it. */
const GIVEN: Record<string, string> = {
  client: "declare const client: Client;",
  account: "declare const account: BankAccount;",
  webhook: "declare const webhook: Webhook;",
  baseUrl: "declare const baseUrl: string;",
  email: "declare const email: string;",
  password: "declare const password: string;",
  refreshToken: "declare const refreshToken: string;",
  access: "declare const access: string;",
  apiKey: "declare const apiKey: string;",
  auth: 'declare const auth: ClientOptions["auth"];',
  bank_account: "declare const bank_account: string;",
  src_budget: "declare const src_budget: string;",
  dst_budget: "declare const dst_budget: string;",
  // Whatever the call at hand takes (never is assignable to every input).
  input: "declare const input: never;",
  pendingRows:
    'declare const pendingRows: { input: Parameters<Client["transactions"]["create"]>[0]; idempotencyKey: string }[];',
  saveRefreshToken: "declare function saveRefreshToken(token: string | null): Promise<void>;",
  markSent: "declare function markSent(row: unknown): Promise<void>;",
  queueForLater: "declare function queueForLater(write: unknown): Promise<void>;",
};

/** What the package exports that the examples use without importing it. */
const EXPORTS = [
  "createClient",
  "fileWriteJournal",
  "idempotencyKeyOf",
  "isApiError",
  "isValidationError",
  "verifyWebhook",
  "type BankAccount",
  "type Client",
  "type ClientOptions",
  "type Session",
  "type Webhook",
];

const declares = (source: string, name: string) =>
  new RegExp(
    `\\b(const|let|var|function|class|interface|type)\\s+${name}\\b|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from`,
  ).test(source);

/** Every ```ts block of the markdown, as `readme-N.ts` with its preamble. */
export function readmeSnippetFiles(markdown: string): { name: string; source: string }[] {
  const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map(([, code]) => code as string);
  return blocks.map((code, index) => {
    const imports = EXPORTS.filter((entry) => !declares(code, entry.replace(/^type /, "")));
    const given = Object.entries(GIVEN)
      .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !declares(code, name))
      .map(([, declaration]) => declaration);
    const preamble = [
      imports.length > 0 ? `import { ${imports.join(", ")} } from "@allot/sdk";` : "",
      ...given,
      "export {};",
    ];
    return { name: `readme-${index + 1}.ts`, source: `${preamble.join("\n")}\n${code}` };
  });
}
