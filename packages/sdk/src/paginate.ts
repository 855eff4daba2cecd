import type { CallRoute } from "./resources";
import type { AnyRoute } from "./route-types";
import type { RequestOptions } from "./transport";

interface Page {
  next: string | null;
  results: unknown[];
}

/** Async-iterates the items of every page of a list route, following each page's `next` link. */
export function paginator(call: CallRoute) {
  return async function* paginate(route: AnyRoute, input?: unknown, options?: RequestOptions) {
    const visited = new Set<string>();
    let pageInput = input;
    for (;;) {
      const page = (await call(route, pageInput, options)) as Page;
      yield* page.results;
      if (!page.next) return;
      if (visited.has(page.next)) throw new Error(`SDK: pagination loops back to ${page.next}`);
      visited.add(page.next);
      // The link's query (page, page_size, filters) sent to the configured base URL: behind a
      // proxy the server's idea of its own host can differ from the one the client reaches.
      pageInput = { ...(input as object), ...Object.fromEntries(new URL(page.next).searchParams) };
    }
  };
}
