import { replicaReads } from "../../procedures/read-routing";
import { directoryOverview } from "../../services/pages/pages";
import { openProcedure } from "../../procedures/builders";
import { ZOverviewInput, ZOverviewOutput } from "./overview.types";

/** Popular categories and cities for the home page and the not-found pages. */
export const overview = openProcedure
  .use(replicaReads)
  .input(ZOverviewInput)
  .output(ZOverviewOutput)
  .query(({ ctx, input }) => directoryOverview(ctx.readDb, input.limit));
