import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";

export const ZDiscoveryManifest = z.object({
  name: z.string(),
  description: z.string(),
  doors: z.object({
    rest: z.object({ openapi: z.string() }),
    trpc: z.object({ url: z.string(), transformer: z.string() }),
    graphql: z.object({ url: z.string(), schema: z.string(), operations: z.literal("query"), realTime: z.string() }).describe("Query-only GraphQL over the same procedures"),
    mcp: z.object({ url: z.string(), transport: z.string(), protocolVersion: z.string(), serverVersion: z.string(), legacySse: z.string() }),
    agentProfile: z.string(),
    pages: z.string(),
  }),
  auth: z.object({ scheme: z.string(), header: z.string(), keyFormat: z.string(), kinds: z.array(z.string()), anonymous: z.string() }),
  limits: z.object({ anonymousRequestsPerDay: z.number(), keyedRequestsPerMonth: z.number(), searchResultsMax: z.number(), partnerFeedPageMax: z.number() }),
  ranking: z.object({ scoreContract: z.string(), search: z.string(), keyword: z.string(), listicle: z.string() }),
  links: z.object({ gateway: z.string(), llmsTxt: z.string(), aiPlugin: z.string() }),
});

export const ZGatewayInput = z.object({
  agent: z.string().trim().min(1).max(200).optional().describe("The calling agent's name and version, e.g. acme-assistant/2.1"),
});

export const ZGatewayOutput = z.object({
  agent: z.string().nullable(),
  identity: z.object({ kind: z.string().describe("anonymous, developer, partner, business or admin"), businessId: z.string().nullable() }),
  mayCall: z.array(z.object({ operation: z.string(), rest: z.string().nullable(), mcpTool: z.string().nullable() })),
  mayNotCall: z.array(z.object({ operation: z.string(), needs: z.string() })),
  consentRule: z.string(),
});

export const agentDiscoveryMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/agent-discovery",
    operationId: "getAgentDiscovery",
    tags: ["agents"],
    summary: "Discovery manifest: every door, authentication, limits and the ranking disclosure",
  },
};

export const agenticGatewayMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/agentic-gateway",
    operationId: "getAgenticGateway",
    tags: ["agents"],
    summary: "Machine-to-machine handshake: what this caller (anonymous or keyed) may call",
  },
};
