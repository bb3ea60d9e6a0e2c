import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DirectoryClient } from "@directory/sdk";
import { registerPrompts } from "./prompts";
import { registerBusinessProfileResource } from "./resources";
import { registerCompareBusinesses } from "./tools/compare_businesses";
import { registerGetAvailableCities } from "./tools/get_available_cities";
import { registerGetBusinessProfile } from "./tools/get_business_profile";
import { registerGetBuyerQuestions } from "./tools/get_buyer_questions";
import { registerGetCategoryLeaders } from "./tools/get_category_leaders";
import { registerGetLeadStatus } from "./tools/get_lead_status";
import { registerGetListicle } from "./tools/get_listicle";
import { registerGetMyCitations } from "./tools/get_my_citations";
import { registerGetMyVisibilityScore } from "./tools/get_my_visibility_score";
import { registerGetOffers } from "./tools/get_offers";
import { registerSearchBusinesses } from "./tools/search_businesses";
import { registerSearchByKeyword } from "./tools/search_by_keyword";
import { registerSubmitLead } from "./tools/submit_lead";

export const SERVER_NAME = "business-directory";
export const SERVER_VERSION = "1.7.0";

const TOOL_REGISTRATIONS = [
  registerSearchBusinesses,
  registerGetBusinessProfile,
  registerGetCategoryLeaders,
  registerSearchByKeyword,
  registerGetBuyerQuestions,
  registerGetListicle,
  registerCompareBusinesses,
  registerGetAvailableCities,
  registerSubmitLead,
  registerGetLeadStatus,
  registerGetOffers,
  registerGetMyVisibilityScore,
  registerGetMyCitations,
];

const INSTRUCTIONS = `A worldwide business directory: verified and unclaimed businesses, each with a category and a city. ${TOOL_REGISTRATIONS.length} tools.
Ranking: search_businesses and get_category_leaders order results by plan tier (premium, then pro, then basic, then free), then an internal visibility score, then name; each response states this in rankingModel, so tell the user paid tiers rank first. get_listicle orders by directory completeness score, then name, and is not a paid placement.
Use search_businesses, search_by_keyword, get_category_leaders or get_listicle to find businesses; their slugs feed get_business_profile, get_buyer_questions, get_offers and compare_businesses. get_available_cities lists the cities of a category.
submit_lead sends the user's contact details to a business: call it only after the user explicitly agreed in this conversation to be contacted by that business, never speculatively. get_lead_status follows a lead up.
get_my_visibility_score and get_my_citations are for business owners and need a business-scoped API key.`;

/** One MCP server over a directory client: every tool is one tRPC procedure call, nothing more. */
export function createMcpServer(client: DirectoryClient): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS });
  for (const register of TOOL_REGISTRATIONS) register(server, client);
  registerBusinessProfileResource(server, client);
  registerPrompts(server);
  return server;
}
