import { replicaReads } from "../../procedures/read-routing";
import { assistantPluginSearch } from "../../services/search/lookup";
import { openProcedure } from "../../procedures/builders";
import { noteLegacyFields } from "./legacy-fields";
import { searchBusinessesMeta, ZSearchBusinessesInput, ZSearchBusinessesOutput } from "./search-businesses.types";

/** GET /api/assistant-plugin (spec 4.1): category and city, no key. */
export const searchBusinesses = openProcedure
  .use(replicaReads)
  .meta(searchBusinessesMeta)
  .input(ZSearchBusinessesInput)
  .output(ZSearchBusinessesOutput)
  .use(noteLegacyFields("searchBusinesses"))
  .query(({ ctx, input }) => assistantPluginSearch(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
