import { AsyncLocalStorage } from "node:async_hooks";
import { McpServer, type CacheHint } from "@modelcontextprotocol/server";
import { CONFIDENCE_MEANING, LEAD_CONSENT_RULE, MCP_SERVER, RANKING } from "@directory/api/schemas";
import { directoryErrorOf, type DirectoryClient } from "@directory/sdk";
import { registerPrompts } from "./prompts";
import { registerBusinessProfileResource, registerCategoryResources, registerCorrectionStatusResource } from "./resources";
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
import { registerSuggestCorrection } from "./tools/suggest_correction";

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
  registerSuggestCorrection,
];

const INSTRUCTIONS = `A worldwide business directory: verified and unclaimed businesses, each with a category and a city. ${TOOL_REGISTRATIONS.length} tools.
Ranking of search_businesses and get_category_leaders: ${RANKING.search} Each response states this in rankingModel, so tell the user paid tiers rank first. Ranking of get_listicle: ${RANKING.listicle}
Use search_businesses, search_by_keyword, get_category_leaders or get_listicle to find businesses; their slugs feed get_business_profile, get_buyer_questions, get_offers and compare_businesses. get_available_cities lists the cities of a category; the resource directory://categories lists the valid categories.
submit_lead sends the user's contact details to a business and ${LEAD_CONSENT_RULE} get_lead_status follows a lead up. suggest_correction reports a wrong or closed fact for an admin to check; directory://corrections/{correctionId} reads its status.
get_my_visibility_score and get_my_citations are for business owners and need a business-scoped API key.
Every fact is a claim with its source: ${CONFIDENCE_MEANING} A permanently closed business is in no list but its profile says so (operatingStatus); unverified there means no one stated its status and every fact is stale: say so before sending anyone.`;

/**
 * What a 2026-07-28 client may cache: the lists and the categories are the same for every caller and
 * change only with a release or a new category, so shared caches may keep them for an hour.
 * Resource reads default to a minute (a profile's facts change through edits); server/discover to a day.
 */
const PUBLIC_HOUR: CacheHint = { ttlMs: 3_600_000, cacheScope: "public" };
const CACHE_HINTS = {
  "server/discover": { ttlMs: 86_400_000, cacheScope: "public" },
  "tools/list": PUBLIC_HOUR,
  "prompts/list": PUBLIC_HOUR,
  "resources/list": PUBLIC_HOUR,
  "resources/templates/list": PUBLIC_HOUR,
  "resources/read": { ttlMs: 60_000, cacheScope: "public" },
} satisfies Record<string, CacheHint>;

/** One finished tool call: a result with isError is an error even though the HTTP answer is 200. */
export interface ToolCallRecord {
  tool: string;
  isError: boolean;
  /** The HTTP status of the procedure error behind an isError result (401, 429, ...), when there was one. */
  errorStatus: number | null;
  durationMs: number;
}

export type ToolCallObserver = (call: ToolCallRecord) => void;

/** The procedure error status of the tool call in progress, read by observeClient. */
const toolCallState = new AsyncLocalStorage<{ errorStatus: number | null }>();

/** The client as the tools see it: a procedure that fails notes its HTTP status for the tool call's record. */
function observeClient<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if ((property === "query" || property === "mutate") && typeof value === "function") {
        return async (...args: unknown[]) => {
          try {
            return await (value as (...callArgs: unknown[]) => Promise<unknown>)(...args);
          } catch (error) {
            const state = toolCallState.getStore();
            if (state) state.errorStatus = directoryErrorOf(error)?.status ?? 500;
            throw error;
          }
        };
      }
      return typeof value === "function" || (typeof value === "object" && value !== null) ? observeClient(value) : value;
    },
  });
}

/** Wraps registerTool so every tool call is reported once it finished, whatever the tool. */
function observeTools(server: McpServer, onToolCall: ToolCallObserver): void {
  const registerTool = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  (server as unknown as { registerTool: (...args: unknown[]) => unknown }).registerTool = (name: unknown, config: unknown, handler: unknown) =>
    registerTool(name, config, async (...args: unknown[]) => {
      const state = { errorStatus: null as number | null };
      const startedAt = performance.now();
      let isError = true;
      try {
        const result = (await toolCallState.run(state, () => (handler as (...handlerArgs: unknown[]) => Promise<{ isError?: boolean }>)(...args))) ?? {};
        isError = result.isError === true;
        return result;
      } finally {
        onToolCall({ tool: String(name), isError, errorStatus: isError ? (state.errorStatus ?? null) : null, durationMs: performance.now() - startedAt });
      }
    });
}

/**
 * One MCP server over a directory client: every tool is one tRPC procedure call, nothing more.
 * With onToolCall, each finished tool call is reported (for logs and metrics).
 */
export function createMcpServer(client: DirectoryClient, onToolCall?: ToolCallObserver): McpServer {
  const server = new McpServer({ name: MCP_SERVER.name, version: MCP_SERVER.version }, { instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS });
  if (onToolCall) {
    observeTools(server, onToolCall);
    client = observeClient(client);
  }
  for (const register of TOOL_REGISTRATIONS) register(server, client);
  registerBusinessProfileResource(server, client);
  registerCategoryResources(server, client);
  registerCorrectionStatusResource(server, client);
  registerPrompts(server, client);
  return server;
}
