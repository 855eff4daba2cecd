import { routes } from "@allot/contract/routes";
import { type AuthResource, authResource } from "./auth-resource";
import { paginator } from "./paginate";
import { type GeneratedResources, generateResources } from "./resources";
import type { AnyRoute, PageItem, PaginatedRoute, RouteArgs, RouteOutput } from "./route-types";
import { createTransport, type RequestOptions, type TransportOptions } from "./transport";

export type ClientOptions = TransportOptions;

export type Client = Omit<GeneratedResources, "auth"> & {
  auth: AuthResource;
  /** Calls any route of the contract: the typed core every resource method goes through. */
  call<R extends AnyRoute>(route: R, ...args: RouteArgs<R>): Promise<RouteOutput<R>>;
  /** Every item of a paginated list, page after page, following `next` until it is null. */
  paginate<R extends PaginatedRoute>(route: R, ...args: RouteArgs<R>): AsyncGenerator<PageItem<R>, void>;
};

/** A typed client of the Allot API, generated from the contract's route specs. */
export function createClient(options: ClientOptions): Client {
  const send = createTransport(options);
  const call = async (route: AnyRoute, input?: unknown, requestOptions?: RequestOptions) =>
    (await send(route, input, requestOptions)).body;
  const { auth, ...generated } = generateResources(routes, call);
  return {
    ...generated,
    auth: authResource(auth, send),
    call: call as Client["call"],
    paginate: paginator(call) as Client["paginate"],
  };
}
