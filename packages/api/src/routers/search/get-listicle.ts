import { replicaReads } from "../../procedures/read-routing";
import { listicle } from "../../services/search/category-search";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { getListicleMeta, ZGetListicleInput, ZGetListicleOutput } from "./get-listicle.types";

/** "Best N <category> in <city>", ordered by directory score then name; never a paid placement (get_listicle). */
export const getListicle = anonymousDailyProcedure
  .use(replicaReads)
  .meta(getListicleMeta)
  .input(ZGetListicleInput)
  .output(ZGetListicleOutput)
  .query(({ ctx, input }) => listicle(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
