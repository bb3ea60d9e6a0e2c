import { replicaReads } from "../../procedures/read-routing";
import { lookupBusinesses as lookup } from "../../services/search/lookup";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { noteLegacyFields } from "./legacy-fields";
import { lookupBusinessesMeta, ZLookupBusinessesInput, ZLookupBusinessesOutput } from "./lookup-businesses.types";

/** GET /api/v2/businesses: one category in one city, resolved and paged. */
export const lookupBusinesses = anonymousDailyProcedure
  .use(replicaReads)
  .meta(lookupBusinessesMeta)
  .input(ZLookupBusinessesInput)
  .output(ZLookupBusinessesOutput)
  .use(noteLegacyFields("lookupBusinesses"))
  .query(({ ctx, input }) => lookup(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
