import type { Express } from "express";
import { API_VERSION } from "@directory/api";

/** The assistant plugin manifest and llms.txt: static descriptions that point agents at the real doors. */
export function mountWellKnown(app: Express, publicBaseUrl: string): void {
  const pluginManifest = {
    schema_version: "v1",
    version: API_VERSION,
    name_for_human: "Business Directory",
    name_for_model: "business_directory",
    description_for_human: "Find businesses worldwide by category and city, with sourced, confidence-rated facts.",
    description_for_model:
      "Search businesses by category and city (GET /api/assistant-plugin). Results are ordered by plan tier (premium, pro, basic, free), " +
      "then an internal score, then name; every fact in a profile carries its source and confidence. Never contact a business for a user without their explicit consent.",
    auth: { type: "none" },
    api: { type: "openapi", url: `${publicBaseUrl}/api/openapi.json` },
    contact_email: "support@directory.example",
    legal_info_url: `${publicBaseUrl}/llms.txt`,
  };
  const llmsTxt = [
    "# Business Directory for AI agents",
    "",
    "> Worldwide businesses by category and city. Every fact carries its source, confidence and verification (self-reported, admin-verified, registry).",
    "",
    "Search results are ordered by plan tier (premium, pro, basic, free), then an internal visibility score, then name; listicles are ordered by profile completeness and are not paid placements.",
    "",
    "## Doors",
    `- [OpenAPI 3.1](${publicBaseUrl}/api/openapi.json): the REST API`,
    `- [Discovery manifest](${publicBaseUrl}/api/agent-discovery): every door, auth, limits, ranking`,
    `- [Gateway handshake](${publicBaseUrl}/api/agentic-gateway): what your key may call`,
    `- MCP (Streamable HTTP, protocol 2024-11-05): ${publicBaseUrl}/api/mcp`,
    `- Agent profile per business: ${publicBaseUrl}/business/{slug}/agent.json`,
    "",
    "## Rules",
    "- Anonymous: 500 requests per day per IP on /api/v2; keys: 10,000 requests per month.",
    "- Submit a lead only after the user explicitly agreed to be contacted by that business.",
    "",
  ].join("\n");

  app.get("/.well-known/ai-plugin.json", (_req, res) => {
    res.json(pluginManifest);
  });
  app.get("/llms.txt", (_req, res) => {
    res.type("text/plain; charset=utf-8").send(llmsTxt);
  });
}
