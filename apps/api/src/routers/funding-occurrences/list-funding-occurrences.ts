import { listFundingOccurrencesRoute } from "@allot/contract/funding-occurrences/routes";
import { listFundingOccurrences } from "@allot/domain/funding-occurrences/list-funding-occurrences";
import { toPage } from "../../http/page-links";
import { procedureFor } from "../../trpc/trpc";

export const listFundingOccurrencesProcedure = procedureFor(listFundingOccurrencesRoute).query(
  async ({ ctx, input }) => toPage(ctx.http.request, await listFundingOccurrences(ctx, input)),
);
