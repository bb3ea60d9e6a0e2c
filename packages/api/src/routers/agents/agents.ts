import { z } from "zod";
import { discoveryManifest, gatewayHandshake } from "../../services/agents/agent-manifest";
import { openProcedure } from "../../trpc";
import { agentDiscoveryMeta, agenticGatewayMeta, ZDiscoveryManifest, ZGatewayInput, ZGatewayOutput } from "./agents.types";

export const getAgentDiscovery = openProcedure
  .meta(agentDiscoveryMeta)
  .input(z.object({}))
  .output(ZDiscoveryManifest)
  .query(({ ctx }) => discoveryManifest(ctx.publicBaseUrl, ctx.rateLimits));

export const getAgenticGateway = openProcedure
  .meta(agenticGatewayMeta)
  .input(ZGatewayInput)
  .output(ZGatewayOutput)
  .query(({ ctx, input }) => gatewayHandshake({ kind: ctx.apiKey?.kind ?? null, businessId: ctx.apiKey?.businessId ?? null }, input.agent));
