import { isApiError } from "@allot/sdk/api-error";
import type { RequestMethod } from "@allot/sdk/raw-request";
import { type Command, InvalidArgumentError } from "commander";
import { type ApiOptions, addApiOptions, openApiSession } from "../api-session";
import { addExamples, EXIT_API_ERROR } from "../cli-conventions";
import type { CliEnv } from "../env";
import { jsonText } from "../format/terminal-text";
import { reportError, UsageError } from "../output";
import { apiPathOf, fieldsOf, readData } from "./api-input";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

interface Options extends ApiOptions {
  data?: string;
  field?: string[];
}

function methodOf(text: string): RequestMethod {
  const method = text.toUpperCase();
  if (!(METHODS as readonly string[]).includes(method))
    throw new InvalidArgumentError(`choose one of ${METHODS.join(", ")}.`);
  return method as RequestMethod;
}

// Pretty for a person at a terminal, one line for a pipe (jq, a file).
// A text answer (not JSON) is printed as it came: the raw passthrough a script asked for.
const answerText = (value: unknown, pretty: boolean | undefined) =>
  `${typeof value === "string" ? value : jsonText(value, pretty ? 2 : undefined)}\n`;

/**
 * `allot api METHOD PATH`: any call of the API with the profile's credential, like `gh api`. Writes
 * go through the SDK like every other command's: an Idempotency-Key, retries, the write journal.
 */
export function registerApiCommand(command: Command, env: CliEnv): void {
  const api = addApiOptions(
    command
      .argument("<method>", `${METHODS.join(", ")} (any case)`, methodOf)
      .argument("<path>", "below the API: /v1/banks/, v1/banks/ and /api/v1/banks/ alike")
      .option("-d, --data <json>", "the JSON body: the text itself, @FILE, or - for stdin")
      .option(
        "-f, --field <key=value>",
        "a field of the body (of the query for GET and DELETE); key:=JSON for numbers, true, null, lists; repeatable",
        (word: string, words: string[] = []) => [...words, word],
      ),
  ).action(async (method: RequestMethod, path: string, options: Options) => {
    try {
      const reads = method === "GET" || method === "DELETE";
      const words = options.field ?? [];
      if (options.data !== undefined && words.length > 0)
        throw new UsageError("Give the body with --data or with --field, not both.", "usage_error");
      if (reads && options.data !== undefined)
        throw new UsageError(
          `${method} sends no body: give its query with --field (e.g. --field page_size:=5).`,
          "usage_error",
        );
      const fields = fieldsOf(words);
      const data =
        options.data === undefined ? undefined : await readData(options.data, env.workingDirectory);
      // A person at a terminal hears about a resumed write or a throttled wait; a script's stderr
      // holds only the API's error body.
      const { client, target } = await openApiSession(env, { ...options, json: !process.stderr.isTTY });
      const answer = await client.request(
        method,
        apiPathOf(path, target.baseUrl),
        reads ? { query: fields } : { body: data ?? fields },
      );
      if (answer !== undefined) process.stdout.write(answerText(answer, process.stdout.isTTY));
    } catch (error) {
      // The API's own answer, as it came: scripts read its code and fields.
      if (isApiError(error) && error.body !== undefined && error.body !== "") {
        process.exitCode = EXIT_API_ERROR;
        process.stderr.write(answerText(error.body, process.stderr.isTTY));
        return;
      }
      reportError(error, false);
    }
  });
  api.addHelpText(
    "after",
    `
The answer is printed as JSON on stdout (indented at a terminal, one line otherwise); an answer
outside 2xx exits 1 with the API's error body on stderr. Fields: key=value sends a string,
key:=value raw JSON (key:=12.5, key:=true, key:=null, key:='["a","b"]'); a key given twice is a
list. GET and DELETE send fields as the query string. Writes carry an Idempotency-Key and are
resent with it when run again after no answer came, like every allot write.`,
  );
  addExamples(api, [
    "allot api GET /v1/users/me/",
    "allot api get v1/banks/ --field search=credit --field page_size:=5",
    "allot api POST /v1/budgets/ -f name=Rent -f bank_account=ACCOUNT_ID -f budget_type=G \\\n      -f funding_type=F -f target_balance=1200 -f funding_amount=100",
    'allot api PATCH /v1/bank-accounts/ACCOUNT_ID/ --data \'{"name": "Joint"}\'',
    "jq -n --arg bank BANK_ID '{name: \"Checking\", bank: $bank}' | allot api POST /v1/bank-accounts/ --data -",
  ]);
}
