import type { RouteSpec } from "@allot/contract/http/route";
import type { UploadedFile } from "@allot/contract/http/uploaded-file";
import type { z } from "zod";
import type { FileDownload } from "./file-download";
import type { FileUpload } from "./file-upload";
import type { RequestOptions } from "./transport";

export type AnyRoute = RouteSpec<z.ZodType, z.ZodType>;

/**
 * A file part the server's parser hands on as an UploadedFile (a receipt's `image`, `document`) is
 * sent from any FileUpload: with one among the fields, the body goes as multipart/form-data.
 */
type WithUploads<Input> = {
  [Field in keyof Input]: UploadedFile extends Input[Field]
    ? Exclude<Input[Field], UploadedFile> | FileUpload
    : Input[Field];
};

/**
 * What a caller sends: the contract's input schema before parsing, as a JSON client writes it (the
 * contract types its form-text readings out: money is a decimal string, `page` a number, a cleared
 * field null, not ""), files as FileUpload.
 */
export type RouteInput<R extends AnyRoute> = WithUploads<z.input<R["input"]>>;
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
