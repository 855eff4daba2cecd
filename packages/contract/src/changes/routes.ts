import { z } from "zod";
import { pageQuery, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ChangesPageSchema } from "./change";

/** The changes routes, each keyed by the one name the API, the SDK and the CLI give it. */
export const changeRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/v1/bank-accounts/{id}/changes/",
    status: 200,
    summary: "What changed in a bank account since a cursor, deletions included (delta sync)",
    description:
      "Delta sync. Without `since`, a full snapshot of every live object of the account; with a cursor from an earlier answer, what was created, updated or deleted since. Follow `next_cursor` while `has_more`; keep the last cursor for the next sync. A cursor older than the kept deletions (90 days) answers 410 `cursor_expired`.",
    tags: ["changes"],
    access: "user",
    errors: [410],
    input: z.object({
      id: uuidField().meta({ description: "The bank account's id." }),
      since: z
        .string()
        .max(512)
        .meta({
          description:
            "A cursor this route answered for this account; without it, every live object (a full snapshot). One older than the kept deletions (CHANGES_RETENTION_DAYS, 90 days) is 410 `cursor_expired`: start again without it.",
        })
        .optional(),
      page_size: pageQuery.page_size,
    }),
    output: ChangesPageSchema,
  }),
};
