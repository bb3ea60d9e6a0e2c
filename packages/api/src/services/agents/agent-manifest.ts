import type { ApiKeyKind } from "@directory/db";
import { KEYWORD_RANKING } from "../search/keyword-search";
import { LISTICLE_DISCLOSURE } from "../search/category-search";
import { SCORE_CONTRACT_VERSION } from "../search/listing";
import type { RateLimitSettings } from "../access/rate-limits";
import { RANKING_DISCLOSURE } from "../search/ranking";

type Access = "anonymous" | "any_key" | "partner" | "business" | "admin";

/** Every operation an agent can call, with the access it needs: the one table the gateway reads. */
const OPERATIONS: ReadonlyArray<{ operation: string; access: Access; rest?: string; mcpTool?: string }> = [
  { operation: "searchBusinesses", access: "anonymous", rest: "GET /api/assistant-plugin", mcpTool: "search_businesses" },
  { operation: "lookupBusinesses", access: "anonymous", rest: "GET /api/v2/businesses" },
  { operation: "getEntityProfile", access: "anonymous", rest: "GET /api/v2/entity-profile", mcpTool: "get_business_profile" },
  { operation: "getEntityProfileHistory", access: "any_key", rest: "GET /api/v2/entity-profile?history=true" },
  { operation: "getEntityById", access: "anonymous", rest: "GET /entity/{id}?format=json" },
  { operation: "getAgentProfile", access: "anonymous", rest: "GET /business/{slug}/agent.json" },
  { operation: "getCategoryLeaders", access: "anonymous", mcpTool: "get_category_leaders" },
  { operation: "searchByKeyword", access: "anonymous", mcpTool: "search_by_keyword" },
  { operation: "getBuyerQuestions", access: "anonymous", mcpTool: "get_buyer_questions" },
  { operation: "getListicle", access: "anonymous", mcpTool: "get_listicle" },
  { operation: "compareBusinesses", access: "anonymous", mcpTool: "compare_businesses" },
  { operation: "getAvailableCities", access: "anonymous", mcpTool: "get_available_cities" },
  { operation: "getOffers", access: "anonymous", mcpTool: "get_offers" },
  { operation: "submitLead", access: "anonymous", mcpTool: "submit_lead" },
  { operation: "getLeadStatus", access: "anonymous", mcpTool: "get_lead_status" },
  { operation: "getPartnerFeed", access: "partner", rest: "GET /api/v2/partner-feed" },
  { operation: "getMyVisibilityScore", access: "business", mcpTool: "get_my_visibility_score" },
  { operation: "getMyCitations", access: "business", mcpTool: "get_my_citations" },
  { operation: "transitionLead", access: "business" },
];

function allows(kind: ApiKeyKind | null, access: Access): boolean {
  if (access === "anonymous") return true;
  if (kind === null) return false;
  if (kind === "admin") return access !== "business";
  if (access === "any_key") return true;
  return (access === "partner" && kind === "partner") || (access === "business" && kind === "business");
}

/** The discovery manifest: every door, how to authenticate, the limits, and how results are ranked. */
export function discoveryManifest(baseUrl: string, limits: RateLimitSettings) {
  return {
    name: "Business Directory for AI agents",
    description: "Worldwide businesses by category and city; every fact carries its source, confidence and verification.",
    doors: {
      rest: { openapi: `${baseUrl}/api/openapi.json` },
      trpc: { url: `${baseUrl}/trpc`, transformer: "superjson" },
      graphql: { url: `${baseUrl}/api/graphql`, schema: `${baseUrl}/api/graphql/schema.graphql`, operations: "query" as const, realTime: "webhooks (entity.updated), not subscriptions" },
      mcp: { url: `${baseUrl}/api/mcp`, transport: "streamable-http", protocolVersion: "2024-11-05", serverVersion: "1.7.0", legacySse: `${baseUrl}/api/mcp/sse` },
      agentProfile: `${baseUrl}/business/{slug}/agent.json`,
      pages: `${baseUrl}/business/{slug}`,
    },
    auth: {
      scheme: "bearer",
      header: "Authorization: Bearer <key>",
      keyFormat: "bdk_<dev|ptr|biz|adm>_<28 characters>",
      kinds: ["developer", "partner", "business", "admin"],
      anonymous: "Allowed for search, profiles, agent.json, and (at a reduced rate) the v2 routes",
    },
    limits: {
      anonymousRequestsPerDay: limits.anonymousPerDay,
      keyedRequestsPerMonth: limits.keyedPerMonth,
      searchResultsMax: 10,
      partnerFeedPageMax: 500,
    },
    ranking: { scoreContract: SCORE_CONTRACT_VERSION, search: RANKING_DISCLOSURE, keyword: KEYWORD_RANKING, listicle: LISTICLE_DISCLOSURE },
    links: { gateway: `${baseUrl}/api/agentic-gateway`, llmsTxt: `${baseUrl}/llms.txt`, aiPlugin: `${baseUrl}/.well-known/ai-plugin.json` },
  };
}

/** The handshake: who the caller is, and exactly which operations it may call with what it presented. */
export function gatewayHandshake(caller: { kind: ApiKeyKind | null; businessId: string | null }, agent: string | undefined) {
  const permitted = OPERATIONS.filter((op) => allows(caller.kind, op.access));
  return {
    agent: agent ?? null,
    identity: { kind: caller.kind ?? "anonymous", businessId: caller.businessId },
    mayCall: permitted.map(({ operation, rest, mcpTool }) => ({ operation, rest: rest ?? null, mcpTool: mcpTool ?? null })),
    mayNotCall: OPERATIONS.filter((op) => !permitted.includes(op)).map((op) => ({ operation: op.operation, needs: op.access })),
    consentRule: "submitLead needs the user's explicit agreement, in this conversation, to be contacted by that business; never submit speculatively.",
  };
}
