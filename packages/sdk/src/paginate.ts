import type { CallRoute } from "./resources";
import type { AnyRoute } from "./route-types";
import type { RequestOptions } from "./transport";

interface Page {
  next: string | null;
  results: unknown[];
}

/** A resource's list method (`client.budgets.list`), which `paginate` accepts as well as a route. */
type ListMethod = (input?: never, options?: RequestOptions) => Promise<Page>;

/** Async-iterates the items of every page of a list, following each page's `next` link. */
export function paginator(call: CallRoute) {
  return async function* paginate(list: AnyRoute | ListMethod, input?: unknown, options?: RequestOptions) {
    const fetchPage = (pageInput: unknown) =>
      (typeof list === "function"
        ? list(pageInput as never, options)
        : call(list, pageInput, options)) as Promise<Page>;
    const visited = new Set<string>();
    let pageInput = input;
    for (;;) {
      const page = await fetchPage(pageInput);
      yield* page.results;
      if (!page.next) return;
      if (visited.has(page.next)) throw new Error(`SDK: pagination loops back to ${page.next}`);
      visited.add(page.next);
      // The link's query (page, page_size, filters) sent to the configured base URL: behind a
      // proxy the server's idea of its own host can differ from the one the client reaches.
      pageInput = { ...(input as object), ...queryOf(new URL(page.next)) };
    }
  };
}

/** A link's query as input; a repeated filter (`?status=A&status=B`) stays a list. */
function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length > 1 ? values : (values[0] ?? "");
  }
  return query;
}
