import type { ChangesPage } from "@allot/contract/changes/change";
import type { GeneratedResources } from "./resources";
import type { RequestOptions } from "./transport";

/** Where `changes.iterate` starts and how much each page holds. */
export interface ChangeFeedOptions {
  /** A cursor a page answered (stored after applying it); without it, a full snapshot. */
  since?: string;
  /** Changes a page (the server's default 100, at most 500). */
  pageSize?: number;
}

export type ChangesResource = GeneratedResources["changes"] & {
  /**
   * An account's change feed (docs/spec/extensions.md §2), page after page, following each page's
   * `cursor` until `has_more` is false. Pages, not single changes: apply one, store its `cursor`,
   * then ask for the next, and a crash in between resumes from the last page applied. An expired
   * `since` throws the API's 410 as ApiError with code `cursor_expired`: start again without it.
   */
  iterate(
    accountId: string,
    feed?: ChangeFeedOptions,
    options?: RequestOptions,
  ): AsyncGenerator<ChangesPage, void>;
};

export function changesResource(generated: GeneratedResources["changes"]): ChangesResource {
  return {
    ...generated,
    async *iterate(accountId, { since, pageSize } = {}, options) {
      let cursor = since;
      for (;;) {
        const page = await generated.list({ id: accountId, since: cursor, page_size: pageSize }, options);
        yield page;
        if (!page.has_more) return;
        // A page with more to come always moves the cursor on; one that does not would loop for ever.
        if (page.cursor === cursor)
          throw new Error(`SDK: the change feed answered more after ${cursor} without moving on`);
        cursor = page.cursor;
      }
    },
  };
}
