import { routes } from "@allot/contract/routes";
import { type AuthResource, authResource } from "./auth-resource";
import { type ChangesResource, changesResource } from "./changes-resource";
import { withUploadDigests } from "./file-upload";
import { idempotencyKeyFor, namesOwnKey } from "./idempotency-key";
import { paginator } from "./paginate";
import { type RawRequestOptions, type RequestMethod, rawCall } from "./raw-request";
import { type GeneratedResources, generateResources } from "./resources";
import type {
  AnyRoute,
  PageItem,
  PageMethod,
  PageMethodItem,
  PaginatedRoute,
  RouteArgs,
  RouteOutput,
} from "./route-types";
import { type Session, type SessionOptions, sessionAuth } from "./session-auth";
import { type TransactionsResource, transactionsResource } from "./transactions-resource";
import { apiBaseOf, createTransport, type RequestOptions, type TransportOptions } from "./transport";
import { callerIdentity, journaledWrite } from "./write-fingerprint";
import { sendJournaled, type WriteJournal } from "./write-journal";

export type ClientOptions = TransportOptions &
  SessionOptions & {
    /**
     * Keeps each write's `Idempotency-Key` until the write is answered, so the same write sent by a
     * later run (after a crash, or a connection lost for good) resends that key and is applied once.
     * Not used for a call that names its own key. `fileWriteJournal(path)` keeps one in a file.
     */
    writeJournal?: WriteJournal;
  };

export type Client = Omit<GeneratedResources, "auth" | "changes" | "transactions"> & {
  auth: AuthResource;
  changes: ChangesResource;
  transactions: TransactionsResource;
  /** The login session the client holds (rotated on each refresh); null for an API key or none. */
  readonly session: Session | null;
  /** Calls any route of the contract: the typed core every resource method goes through. */
  call<R extends AnyRoute>(route: R, ...args: RouteArgs<R>): Promise<RouteOutput<R>>;
  /**
   * Every item of a paginated list, page after page, following `next` until it is null:
   * `for await (const budget of client.paginate(client.budgets.list, { account }))`.
   */
  paginate<R extends PaginatedRoute>(route: R, ...args: RouteArgs<R>): AsyncGenerator<PageItem<R>, void>;
  paginate<M extends PageMethod>(list: M, ...args: Parameters<M>): AsyncGenerator<PageMethodItem<M>, void>;
  /**
   * Any call by method and path below `/api` (`"/v1/banks/"`), for what has no typed method: sent
   * like every other call (credential, retries, Idempotency-Key, write journal); resolves to the
   * parsed JSON answer (undefined for 204), throws ApiError outside 2xx.
   */
  request(method: RequestMethod, path: string, options?: RawRequestOptions): Promise<unknown>;
};

/** A typed client of the Allot API, generated from the contract's route specs. */
export function createClient(options: ClientOptions): Client {
  const rawSend = createTransport(options);
  const auth = sessionAuth(rawSend, options);
  const apiBase = apiBaseOf(options.baseUrl);
  const { writeJournal } = options;
  const call = async (route: AnyRoute, input?: unknown, requestOptions: RequestOptions = {}) => {
    const send = async (idempotencyKey?: string) =>
      (await auth.send(route, input, { ...requestOptions, idempotencyKey })).body;
    // Chosen once per call, so the resend after a session refresh carries the same key too.
    const idempotencyKey = idempotencyKeyFor(route, requestOptions);
    if (idempotencyKey === null || !writeJournal || namesOwnKey(requestOptions))
      return send(idempotencyKey ?? undefined);
    const identity = callerIdentity(options.auth, auth.session);
    return sendJournaled(
      writeJournal,
      // A file counts by its name, size and SHA-256, as the server's own fingerprint counts it.
      journaledWrite(route, await withUploadDigests(input), { apiBase, identity }),
      idempotencyKey,
      send,
    );
  };
  const { auth: generatedAuth, changes, transactions, ...generated } = generateResources(routes, call);
  return {
    ...generated,
    auth: authResource(generatedAuth, rawSend, auth),
    changes: changesResource(changes),
    transactions: transactionsResource(transactions),
    get session() {
      return auth.session;
    },
    call: call as Client["call"],
    paginate: paginator(call) as Client["paginate"],
    request: async (method, path, { query, body, ...requestOptions } = {}) => {
      const { route, input } = rawCall(method, path, { query, body });
      return call(route, input, requestOptions);
    },
  };
}
