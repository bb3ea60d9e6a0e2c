import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";

export const ZGetAgentDiscoveryInput = z.object({});

export const ZGetAgentDiscoveryOutput = z.object({
  name: z.string(),
  description: z.string(),
  doors: z.object({
    rest: z.object({ openapi: z.string() }),
    trpc: z.object({ url: z.string(), transformer: z.string() }),
    graphql: z
      .object({ url: z.string(), schema: z.string(), operations: z.literal("query"), realTime: z.string() })
      .describe("Query-only GraphQL over the same procedures"),
    mcp: z.object({
      url: z.string(),
      transport: z.string(),
      protocolVersion: z.string().describe("The revision the spec names; protocolVersions lists every one served"),
      protocolVersions: z.array(z.string()).describe("Every MCP protocol revision the endpoint serves, newest first"),
      serverVersion: z.string(),
      legacySse: z.string(),
      serverCard: z.string().describe("The MCP server card (application/mcp-server-card+json)"),
    }),
    agentProfile: z.string(),
    pages: z.string(),
  }),
  auth: z.object({ scheme: z.string(), header: z.string(), keyFormat: z.string(), kinds: z.array(z.string()), anonymous: z.string() }),
  limits: z.object({ anonymousRequestsPerDay: z.number(), keyedRequestsPerMonth: z.number(), searchResultsMax: z.number(), partnerFeedPageMax: z.number() }),
  ranking: z.object({ scoreContract: z.string(), search: z.string(), keyword: z.string(), listicle: z.string() }),
  links: z.object({ gateway: z.string(), llmsTxt: z.string(), aiPlugin: z.string(), aiCatalog: z.string() }),
  operations: z
    .array(
      z.object({
        operation: z.string().describe("The operationId in /api/openapi.json"),
        rest: z.string().describe('Its REST route, e.g. "POST /api/v2/leads"'),
        mcpTool: z.string().nullable().describe("The MCP tool that calls the same procedure, if any"),
        needs: z.enum(["nothing", "any_key", "partner", "business", "admin"]).describe("The key it needs: nothing, any_key, or that kind of key"),
      }),
    )
    .describe("Every operation, on every door; /api/agentic-gateway says which of them a given key may call"),
});

export type TGetAgentDiscoveryInput = z.input<typeof ZGetAgentDiscoveryInput>;
export type TGetAgentDiscoveryOutput = z.infer<typeof ZGetAgentDiscoveryOutput>;

export const getAgentDiscoveryMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/agent-discovery",
    operationId: "getAgentDiscovery",
    tags: ["agents"],
    summary: "Discovery manifest: every door, authentication, limits and the ranking disclosure",
  },
};
