import { getAgentProfile as buildAgentProfile } from "../../services/entities/agent-profile";
import { openProcedure } from "../../trpc";
import { getAgentProfileMeta, ZAgentProfile, ZGetAgentProfileInput } from "./get-agent-profile.types";

export const getAgentProfile = openProcedure
  .meta(getAgentProfileMeta)
  .input(ZGetAgentProfileInput)
  .output(ZAgentProfile)
  .query(({ ctx, input }) => buildAgentProfile(ctx.db, ctx.publicBaseUrl, input.slug));
