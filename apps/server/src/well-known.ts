import type { Express } from "express";
import type { OpenAPIObject } from "trpc-to-openapi";
import { DEFAULT_RATE_LIMITS, OPERATION_PAGES_PATH, operationLines, type RateLimitSettings } from "@directory/api";
import {
  API_VERSION,
  DATA_LICENCES_STATEMENT,
  DIRECTORY_DESCRIPTION,
  DIRECTORY_NAME,
  DISCOVERY_PATHS,
  LEAD_CONSENT_RULE,
  MCP_PROTOCOL_VERSIONS,
  RANKING,
  rateLimitSentence,
  SUPPORT_CONTACT,
} from "@directory/api/schemas";

/**
 * The assistant plugin manifest and llms.txt: static descriptions that point agents at the real
 * doors. Every fact in them (versions, limits, ranking, the lead rule, contact) is read from the
 * agent facts, with the limits this server's rate limiter enforces; llms.txt lists every REST
 * operation of the OpenAPI document in one line, each with its page.
 */
export function mountWellKnown(app: Express, publicBaseUrl: string, openApiDocument: OpenAPIObject, rateLimits: Partial<RateLimitSettings> = {}): void {
  const limits = { ...DEFAULT_RATE_LIMITS, ...rateLimits };
  const pluginManifest = {
    schema_version: "v1",
    version: API_VERSION,
    name_for_human: "Business Directory",
    name_for_model: "business_directory",
    description_for_human: "Find businesses worldwide by category and city, with sourced, confidence-rated facts.",
    description_for_model:
      `Search businesses by category and city (GET /api/assistant-plugin). ${RANKING.search} ` +
      `Every fact in a profile carries its source and confidence. Submitting a lead ${LEAD_CONSENT_RULE}`,
    auth: { type: "none" },
    api: { type: "openapi", url: `${publicBaseUrl}/api/openapi.json` },
    contact_email: SUPPORT_CONTACT.email,
    legal_info_url: `${publicBaseUrl}/llms.txt`,
  };
  const llmsTxt = [
    `# ${DIRECTORY_NAME}`,
    "",
    `> ${DIRECTORY_DESCRIPTION} Verification is self-reported, admin-verified or registry.`,
    "",
    `Search results: ${RANKING.search}`,
    `Listicles: ${RANKING.listicle}`,
    "",
    "## Doors",
    `- [OpenAPI 3.1](${publicBaseUrl}/api/openapi.json): the REST API`,
    `- [Discovery manifest](${publicBaseUrl}/api/agent-discovery): every door, auth, limits, ranking`,
    `- [Gateway handshake](${publicBaseUrl}/api/agentic-gateway): what your key may call`,
    `- MCP (Streamable HTTP): ${publicBaseUrl}${DISCOVERY_PATHS.mcp}, protocol revisions ${MCP_PROTOCOL_VERSIONS.join(", ")}: ` +
      `${MCP_PROTOCOL_VERSIONS[0]} statelessly (server/discover), the others through initialize`,
    `- MCP legacy HTTP+SSE (initialize only): ${publicBaseUrl}${DISCOVERY_PATHS.legacySse}`,
    `- [MCP server card](${publicBaseUrl}${DISCOVERY_PATHS.serverCard}) and [AI Catalog](${publicBaseUrl}${DISCOVERY_PATHS.aiCatalog})`,
    `- Agent profile per business: ${publicBaseUrl}/business/{slug}/agent.json`,
    "",
    "## Rules",
    `- ${rateLimitSentence(limits)}`,
    `- A lead (submitLead, MCP submit_lead) ${LEAD_CONSENT_RULE}`,
    "- Errors are JSON { error, code }. Every operation may answer 413 (body too large), 415 (body not UTF-8 JSON), " +
      "429 (rate limit; Retry-After says when), 431 (headers over 16 KB) and 503 (unavailable; Retry-After).",
    "",
    "## REST operations",
    `Each line: method, path, what it does, the key it needs, and its page (${publicBaseUrl}${OPERATION_PAGES_PATH}/{operationId}.md: parameters, responses, one example).`,
    ...operationLines(openApiDocument, publicBaseUrl),
    "",
    "## Data licences",
    `- ${DATA_LICENCES_STATEMENT}`,
    "",
  ].join("\n");

  app.get("/.well-known/ai-plugin.json", (_req, res) => {
    res.json(pluginManifest);
  });
  app.get("/llms.txt", (_req, res) => {
    res.type("text/plain; charset=utf-8").send(llmsTxt);
  });
}
