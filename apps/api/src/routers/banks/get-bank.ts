import { getBankRoute } from "@allot/contract/banks/routes";
import { getBank } from "@allot/domain/banks/get-bank";
import { procedureFor } from "../../trpc/trpc";

export const getBankProcedure = procedureFor(getBankRoute).query(({ ctx, input }) => getBank(ctx, input));
