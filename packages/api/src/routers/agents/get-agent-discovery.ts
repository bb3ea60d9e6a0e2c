import { discoveryManifest } from "../../services/agents/agent-manifest";
import { operationCatalogue, servedProcedures } from "../../services/agents/agent-operations";
import { openProcedure } from "../../procedures/builders";
import { getAgentDiscoveryMeta, ZGetAgentDiscoveryInput, ZGetAgentDiscoveryOutput } from "./get-agent-discovery.types";

/** The discovery manifest, with the limits this server's rate limiter enforces. */
export const getAgentDiscovery = openProcedure
  .meta(getAgentDiscoveryMeta)
  .input(ZGetAgentDiscoveryInput)
  .output(ZGetAgentDiscoveryOutput)
  .query(({ ctx }) => ({
    ...discoveryManifest({ baseUrl: ctx.publicBaseUrl, rateLimits: ctx.rateLimits }),
    operations: operationCatalogue(servedProcedures()),
  }));
