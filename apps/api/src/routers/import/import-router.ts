import { importRoutes } from "@allot/contract/import/routes";
import { applyTransactionDetails } from "@allot/domain/import/apply-transaction-details";
import { recordImportError } from "@allot/domain/import/record-import-error";
import { syncScrape } from "@allot/domain/import/sync-scrape";
import { bindRoutes } from "../../trpc/bind-routes";

const idOf = (rawInput: unknown) =>
  typeof rawInput === "object" && rawInput !== null ? (rawInput as { id?: unknown }).id : undefined;

/** The import routes, each bound to its use case, in the contract's order. */
export const importRouter = bindRoutes(importRoutes, {
  // Every 400 is recorded as an import_error, the contract's refusals included.
  syncScrape: {
    run: syncScrape,
    onInvalid: (ctx, rawInput, body) =>
      ctx.actor
        ? recordImportError({ ...ctx, actor: ctx.actor }, { id: idOf(rawInput), errors: body })
        : Promise.resolve(),
  },
  transactionDetails: applyTransactionDetails,
});
