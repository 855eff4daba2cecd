import type { Page } from "@allot/domain/shared/pagination";
import type { FastifyRequest } from "fastify";

/** The spec's pagination envelope, with absolute `next`/`previous` links that keep the query. */
export function toPage<T>(request: FastifyRequest, page: Page<T>) {
  const url = new URL(request.allot?.url ?? request.url, `${request.protocol}://${request.host}`);
  const link = (target: number) => {
    const next = new URL(url);
    next.searchParams.set("page", String(target));
    next.searchParams.set("page_size", String(page.pageSize));
    return next.toString();
  };
  const lastPage = Math.max(1, Math.ceil(page.count / page.pageSize));
  return {
    count: page.count,
    next: page.page < lastPage ? link(page.page + 1) : null,
    previous: page.page > 1 ? link(page.page - 1) : null,
    results: page.items,
  };
}
