import { getEntityProfileById } from "../../services/entities/entity-profile";
import { v2Procedure } from "../../trpc";
import { historyModeCache, ZEntityProfile } from "./entity-profile.types";
import { getEntityByIdMeta, ZGetEntityByIdInput } from "./get-entity-by-id.types";

export const getEntityById = v2Procedure
  .meta({ ...getEntityByIdMeta, cache: historyModeCache })
  .input(ZGetEntityByIdInput)
  .output(ZEntityProfile)
  .query(({ ctx, input }) => getEntityProfileById(ctx.db, { ...input, hasApiKey: ctx.apiKey !== null, baseUrl: ctx.publicBaseUrl }));
