import { z } from "zod";
import { pageQuery, uuidField } from "../http/fields";
import { defineRoute } from "../http/route";
import { ChangesPageSchema } from "./change";

export const listChangesRoute = defineRoute({
  method: "GET",
  path: "/v1/bank-accounts/{id}/changes/",
  status: 200,
  summary: "What changed in a bank account since a cursor, deletions included (delta sync)",
  tags: ["changes"],
  access: "user",
  input: z.object({
    id: uuidField(),
    since: z.string().max(512).optional().meta({
      description:
        "A cursor this route answered for this account; without it, every live object (a full snapshot). One older than the kept deletions (CHANGES_RETENTION_DAYS, 90 days) is 410 `cursor_expired`: start again without it.",
    }),
    page_size: pageQuery.page_size,
  }),
  output: ChangesPageSchema,
});
