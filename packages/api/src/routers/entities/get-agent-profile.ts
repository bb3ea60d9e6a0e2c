import { replicaReads } from "../../procedures/read-routing";
import { getAgentProfile as buildAgentProfile } from "../../services/entities/agent-profile";
import { openProcedure } from "../../procedures/builders";
import { getAgentProfileMeta, ZAgentProfile, ZGetAgentProfileInput } from "./get-agent-profile.types";

/** GET /business/{slug}/agent.json: the agent-readable profile (ABO/1.0), no key. */
export const getAgentProfile = openProcedure
  .use(replicaReads)
  .meta(getAgentProfileMeta)
  .input(ZGetAgentProfileInput)
  .output(ZAgentProfile)
  .query(({ ctx, input }) => buildAgentProfile(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
