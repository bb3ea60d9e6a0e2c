import { replicaReads } from "../../procedures/read-routing";
import { getEntityProfileBySlug } from "../../services/entities/entity-profile";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { historyModeCache, ZEntityProfile } from "./entity-profile.types";
import { getEntityProfileMeta, ZGetEntityProfileInput } from "./get-entity-profile.types";

export const getEntityProfile = anonymousDailyProcedure
  .use(replicaReads)
  .meta({ ...getEntityProfileMeta, cache: historyModeCache })
  .input(ZGetEntityProfileInput)
  .output(ZEntityProfile)
  .query(({ ctx, input }) =>
    getEntityProfileBySlug(ctx.readDb, {
      ...input,
      asOf: input.asOf === undefined ? undefined : new Date(input.asOf),
      hasApiKey: ctx.apiKey !== null,
      baseUrl: ctx.publicBaseUrl,
    }),
  );
