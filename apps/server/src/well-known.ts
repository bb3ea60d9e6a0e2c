import type { Express } from "express";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "@directory/api";
import {
  API_VERSION,
  DATA_LICENCES_STATEMENT,
  DIRECTORY_DESCRIPTION,
  DIRECTORY_NAME,
  LEAD_CONSENT_RULE,
  MCP_SERVER,
  RANKING,
  rateLimitSentence,
  SUPPORT_CONTACT,
} from "@directory/api/schemas";

/**
 * The assistant plugin manifest and llms.txt: static descriptions that point agents at the real
 * doors. Every fact in them (versions, limits, ranking, the lead rule, contact) is read from the
 * agent facts, with the limits this server's rate limiter enforces.
 */
export function mountWellKnown(app: Express, publicBaseUrl: string, rateLimits: Partial<RateLimitSettings> = {}): void {
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
    `- MCP (Streamable HTTP, protocol ${MCP_SERVER.protocolVersion}): ${publicBaseUrl}/api/mcp`,
    `- Agent profile per business: ${publicBaseUrl}/business/{slug}/agent.json`,
    "",
    "## Rules",
    `- ${rateLimitSentence(limits)}`,
    `- A lead (submitLead, MCP submit_lead) ${LEAD_CONSENT_RULE}`,
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
