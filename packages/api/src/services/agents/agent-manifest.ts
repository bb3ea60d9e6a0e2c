import { API_KEY_KINDS } from "@directory/db/enums";
import { ZSearchBusinessesInput } from "../../routers/search/search-businesses.types";
import type { RateLimitSettings } from "../access/rate-limits";
import { FEED_MAX_LIMIT } from "../feed/partner-feed";
import { DIRECTORY_DESCRIPTION, DIRECTORY_NAME, MCP_PROTOCOL_VERSIONS, MCP_SERVER, publishedRateLimits, RANKING } from "./agent-facts";
import { DISCOVERY_PATHS } from "./discovery-documents";

export interface DiscoveryManifestParams {
  baseUrl: string;
  /** The limits the rate limiter enforces on this server (ctx.rateLimits). */
  rateLimits: RateLimitSettings;
}

/** The most businesses one search returns: the assistant plugin's own input cap. */
function searchResultsMax(): number {
  const max = ZSearchBusinessesInput.shape.limit.unwrap().maxValue;
  if (max === null) throw new Error("searchBusinesses: its limit parameter has no maximum");
  return max;
}

/** The discovery manifest: every door, how to authenticate, the limits, and how results are ranked. */
export function discoveryManifest(params: DiscoveryManifestParams) {
  const { baseUrl } = params;
  return {
    name: DIRECTORY_NAME,
    description: DIRECTORY_DESCRIPTION,
    doors: {
      rest: { openapi: `${baseUrl}/api/openapi.json` },
      trpc: { url: `${baseUrl}/trpc`, transformer: "superjson" },
      graphql: {
        url: `${baseUrl}/api/graphql`,
        schema: `${baseUrl}/api/graphql/schema.graphql`,
        operations: "query" as const,
        realTime: "webhooks (entity.updated), not subscriptions",
      },
      mcp: {
        url: `${baseUrl}/api/mcp`,
        transport: "streamable-http",
        protocolVersion: MCP_SERVER.protocolVersion,
        protocolVersions: [...MCP_PROTOCOL_VERSIONS],
        serverVersion: MCP_SERVER.version,
        legacySse: `${baseUrl}${DISCOVERY_PATHS.legacySse}`,
        serverCard: `${baseUrl}${DISCOVERY_PATHS.serverCard}`,
      },
      agentProfile: `${baseUrl}/business/{slug}/agent.json`,
      pages: `${baseUrl}/business/{slug}`,
    },
    auth: {
      scheme: "bearer",
      header: "Authorization: Bearer <key>",
      keyFormat: "bdk_<dev|ptr|biz|adm>_<28 characters>",
      kinds: [...API_KEY_KINDS],
      anonymous: "Allowed for search, profiles, agent.json, and (at a reduced rate) the v2 routes",
    },
    limits: { ...publishedRateLimits(params.rateLimits), searchResultsMax: searchResultsMax(), partnerFeedPageMax: FEED_MAX_LIMIT },
    ranking: RANKING,
    links: {
      gateway: `${baseUrl}/api/agentic-gateway`,
      llmsTxt: `${baseUrl}/llms.txt`,
      aiPlugin: `${baseUrl}/.well-known/ai-plugin.json`,
      aiCatalog: `${baseUrl}${DISCOVERY_PATHS.aiCatalog}`,
    },
  };
}
