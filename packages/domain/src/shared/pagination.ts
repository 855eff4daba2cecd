import { DEFAULT_PAGE_SIZE } from "@allot/contract/http/fields";
import { NotFound } from "./errors";

export interface PageRequest {
  page?: number;
  page_size?: number;
}

export interface Page<T> {
  count: number;
  page: number;
  pageSize: number;
  items: T[];
}

/** Offset and limit for a page; a page past the last (other than page 1) is 404. */
export function pageWindow(request: PageRequest, count: number) {
  const page = request.page ?? 1;
  const pageSize = request.page_size ?? DEFAULT_PAGE_SIZE;
  if (page > 1 && (page - 1) * pageSize >= count) throw new NotFound("Invalid page.");
  return { page, pageSize, offset: (page - 1) * pageSize, limit: pageSize };
}

/** Counts, then fetches only the requested window. */
export async function paginate<T>(
  request: PageRequest,
  count: () => Promise<number>,
  fetch: (window: { offset: number; limit: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const total = await count();
  const window = pageWindow(request, total);
  const items = total === 0 ? [] : await fetch(window);
  return { count: total, page: window.page, pageSize: window.pageSize, items };
}
