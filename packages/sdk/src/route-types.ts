import type { RouteSpec } from "@allot/contract/http/route";
import type { z } from "zod";
import type { FileDownload } from "./file-download";
import type { RequestOptions } from "./transport";

export type AnyRoute = RouteSpec<z.ZodType, z.ZodType>;

/** What a caller sends: the contract's input schema before parsing (so `page: "2"` or `2`). */
export type RouteInput<R extends AnyRoute> = z.input<R["input"]>;
/**
 * What the server answers: the contract's output schema; `void` for 204 routes. A route whose
 * output is bytes is a download (`download: true`, which `defineRoute` does not keep in the type):
 * it resolves to the file as a stream.
 */
export type RouteOutput<R extends AnyRoute> =
  z.output<R["output"]> extends Uint8Array ? FileDownload : z.output<R["output"]>;

/** `(input, options?)`, with the input optional when every field of it is. */
export type RouteArgs<R extends AnyRoute> =
  Record<string, never> extends RouteInput<R>
    ? [input?: RouteInput<R>, options?: RequestOptions]
    : [input: RouteInput<R>, options?: RequestOptions];

export type RouteMethod<R extends AnyRoute> = (...args: RouteArgs<R>) => Promise<RouteOutput<R>>;

/** A route answering the spec's page envelope. */
export type PaginatedRoute = RouteSpec<z.ZodType, z.ZodType<{ next: string | null; results: unknown[] }>>;
export type PageItem<R extends PaginatedRoute> = z.output<R["output"]>["results"][number];

/** A resource's list method (`client.budgets.list`): anything answering the page envelope. */
export type PageMethod = (...args: never[]) => Promise<{ next: string | null; results: unknown[] }>;
export type PageMethodItem<M extends PageMethod> = Awaited<ReturnType<M>>["results"][number];
