import { router } from "../../trpc/trpc";
import { syncScrapeProcedure } from "./sync-scrape";
import { transactionDetailsProcedure } from "./transaction-details";

/** The import procedures, in the contract's order. */
export const importRouter = router({
  syncScrape: syncScrapeProcedure,
  transactionDetails: transactionDetailsProcedure,
});
