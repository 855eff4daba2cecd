import { syncScrapeRoute } from "@allot/contract/import/routes";
import { recordImportError } from "@allot/domain/import/record-import-error";
import { syncScrape } from "@allot/domain/import/sync-scrape";
import { procedureFor } from "../../trpc/trpc";

const idOf = (rawInput: unknown) =>
  typeof rawInput === "object" && rawInput !== null ? (rawInput as { id?: unknown }).id : undefined;

export const syncScrapeProcedure = procedureFor(syncScrapeRoute, {
  onInvalid: (ctx, rawInput, body) =>
    ctx.actor
      ? recordImportError({ ...ctx, actor: ctx.actor }, { id: idOf(rawInput), errors: body })
      : Promise.resolve(),
}).mutation(({ ctx, input }) => syncScrape(ctx, input));
