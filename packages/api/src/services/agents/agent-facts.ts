import type { RateLimitSettings } from "../access/rate-limits";
import { KEYWORD_RANKING, LISTICLE_DISCLOSURE, RANKING_DISCLOSURE, SCORE_CONTRACT_VERSION } from "../search/disclosures";

/**
 * What every door tells agents about the directory, said once: the discovery manifest, the agentic
 * gateway, llms.txt, the assistant plugin manifest, the OpenAPI info block and the MCP server's
 * identity and instructions all read it here. It stays free of drizzle (and of anything that reaches
 * the database) because the stdio MCP server bundles it through @directory/api/schemas.
 */

export const DIRECTORY_NAME = "Business Directory for AI agents";
export const DIRECTORY_DESCRIPTION = "Worldwide businesses by category and city; every fact carries its source, confidence and verification.";

/** The REST API's version (OpenAPI info.version), which the assistant plugin manifest carries too (spec 9). */
export const API_VERSION = "1.0.0";

/**
 * The MCP protocol revisions the one endpoint serves, newest first: 2026-07-28 statelessly (each
 * request carries its own version, `server/discover` instead of `initialize`), and every revision
 * of the `initialize` era from the spec's 2024-11-05 on.
 */
export const MCP_PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/**
 * The MCP server's name (and its reverse-DNS name for registries and server cards), version, and
 * the protocol version the spec names (spec 4.9 and 9); MCP_PROTOCOL_VERSIONS lists all served.
 */
export const MCP_SERVER = {
  name: "business-directory",
  registryName: "example.directory/business-directory",
  version: "1.8.0",
  protocolVersion: "2024-11-05",
  protocolVersions: MCP_PROTOCOL_VERSIONS,
} as const;

/** Where API users write to. */
export const SUPPORT_CONTACT = { name: "Business Directory API support", email: "support@directory.example" } as const;

/** How results are ordered, as each search discloses it in its answers (services/search/disclosures.ts). */
export const RANKING = { scoreContract: SCORE_CONTRACT_VERSION, search: RANKING_DISCLOSURE, keyword: KEYWORD_RANKING, listicle: LISTICLE_DISCLOSURE } as const;

/** The rule for submitting a lead; each door puts its own name for the operation in front of it. */
export const LEAD_CONSENT_RULE = "needs the user's explicit agreement, in this conversation, to be contacted by that business; never submit speculatively.";

/**
 * The request limits agents are told, taken from the settings the rate limiter enforces
 * (DEFAULT_RATE_LIMITS with the server's own overrides), so what is said is what is counted.
 */
export function publishedRateLimits(settings: RateLimitSettings) {
  return { anonymousRequestsPerDay: settings.anonymousPerDay, keyedRequestsPerMonth: settings.keyedPerMonth };
}

/** The same limits as one sentence, for prose (the OpenAPI description, llms.txt). */
export function rateLimitSentence(settings: RateLimitSettings): string {
  const count = (n: number) => n.toLocaleString("en-US");
  return `Anonymous callers get ${count(settings.anonymousPerDay)} requests per day per address on the v2 routes; a key gets ${count(settings.keyedPerMonth)} requests per month.`;
}
