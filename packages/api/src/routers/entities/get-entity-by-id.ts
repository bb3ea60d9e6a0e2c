import { replicaReads } from "../../procedures/read-routing";
import { getEntityProfileById } from "../../services/entities/entity-profile";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { historyModeCache, ZEntityProfile } from "./entity-profile.types";
import { getEntityByIdMeta, ZGetEntityByIdInput } from "./get-entity-by-id.types";

export const getEntityById = anonymousDailyProcedure
  .use(replicaReads)
  .meta({ ...getEntityByIdMeta, cache: historyModeCache })
  .input(ZGetEntityByIdInput)
  .output(ZEntityProfile)
  .query(({ ctx, input }) => getEntityProfileById(ctx.readDb, { ...input, hasApiKey: ctx.apiKey !== null, baseUrl: ctx.publicBaseUrl }));
