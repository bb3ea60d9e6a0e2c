import { DIRECTORY_NAME, MCP_PROTOCOL_VERSIONS, MCP_SERVER } from "./agent-facts";

/**
 * The documents an agent finds the MCP server by before it connects: the AI Catalog at
 * /.well-known/ai-catalog.json, the MCP server card it points to, and the MCP registry's
 * server.json kept at the repository root. All three are built here from the agent facts, so the
 * card says what `server/discover` and `initialize` answer (name, version, protocol versions).
 * Free of drizzle: @directory/api/schemas exports it.
 */

export const AI_CATALOG_MEDIA_TYPE = "application/ai-catalog+json";
export const MCP_SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";

/** The AI Catalog release followed (Agent-Card/ai-catalog v0.9.0, the release candidate for 1.0). */
export const AI_CATALOG_SPEC_VERSION = "0.9";
/** The server card schema of modelcontextprotocol/experimental-ext-server-card (SEP-2127): versioned by /v1/, not by date. */
export const MCP_SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The MCP registry's current released server.json schema. */
export const MCP_REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** Where each document is served, relative to the public base URL. */
export const DISCOVERY_PATHS = {
  aiCatalog: "/.well-known/ai-catalog.json",
  serverCard: "/api/mcp/server-card",
  /** The card's earlier well-known location (SEP-2127's first drafts), kept for clients that still look there. */
  serverCardAlias: "/.well-known/mcp/server-card.json",
  mcp: "/api/mcp",
  legacySse: "/api/mcp/sse",
} as const;

/** Registries cap a server's description at 100 characters. */
const SERVER_DESCRIPTION = "Worldwide businesses by category and city; every fact with its source and confidence.";

/**
 * The domain the reverse-DNS registry name stands for (example.directory/... is directory.example):
 * the publisher of every catalog identifier and the host of the registry record, whatever host a
 * deployment answers on.
 */
export function publisherDomain(): string {
  const [namespace] = MCP_SERVER.registryName.split("/");
  return namespace!.split(".").reverse().join(".");
}

/**
 * The legacy HTTP+SSE transport has no stateless mode: it serves only the `initialize` era, the
 * revisions before the first stateless one (2026-07-28). Revision names are dates, so they compare as text.
 */
const FIRST_STATELESS_REVISION = "2026-07-28";
const INITIALIZE_ERA_VERSIONS = MCP_PROTOCOL_VERSIONS.filter((version) => version < FIRST_STATELESS_REVISION);

/** A key is optional: anonymous callers may search and read profiles; a key raises the limits and opens the keyed tools. */
const AUTHORIZATION_HEADER = {
  name: "Authorization",
  description: "Optional: Bearer <key> (bdk_...). Without it, anonymous limits apply.",
  isRequired: false,
  isSecret: true,
};

function remotes(baseUrl: string) {
  return [
    { type: "streamable-http" as const, url: `${baseUrl}${DISCOVERY_PATHS.mcp}`, headers: [AUTHORIZATION_HEADER] },
    { type: "sse" as const, url: `${baseUrl}${DISCOVERY_PATHS.legacySse}`, headers: [AUTHORIZATION_HEADER] },
  ];
}

/**
 * The MCP server card: identity and the two remotes with the protocol revisions each serves. No
 * tools, resources or prompts: those are listed at runtime (tools/list), which the card must not contradict.
 */
export function mcpServerCard(baseUrl: string) {
  const [streamable, sse] = remotes(baseUrl);
  return {
    $schema: MCP_SERVER_CARD_SCHEMA,
    name: MCP_SERVER.registryName,
    version: MCP_SERVER.version,
    title: DIRECTORY_NAME,
    description: SERVER_DESCRIPTION,
    websiteUrl: baseUrl,
    remotes: [
      { ...streamable!, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] },
      { ...sse!, supportedProtocolVersions: [...INITIALIZE_ERA_VERSIONS] },
    ],
  };
}

/**
 * The AI Catalog: one entry, the MCP server card. The REST API is found from the host's
 * documentation (llms.txt), which names the OpenAPI document and a page per operation.
 */
export function aiCatalog(baseUrl: string) {
  return {
    specVersion: AI_CATALOG_SPEC_VERSION,
    host: { displayName: DIRECTORY_NAME, identifier: new URL(baseUrl).host, documentationUrl: `${baseUrl}/llms.txt` },
    entries: [
      // The card carries its own title, description and version: the entry does not repeat them (they could drift).
      {
        identifier: `urn:air:${publisherDomain()}:mcp:${MCP_SERVER.name}`,
        type: MCP_SERVER_CARD_MEDIA_TYPE,
        url: `${baseUrl}${DISCOVERY_PATHS.serverCard}`,
      },
    ],
  };
}

/**
 * The MCP registry's server.json (checked in at the repository root): the same identity and
 * remotes as the card, at the public host the registry name stands for. The registry's remotes
 * carry no protocol versions; the card does.
 */
export function registryServerJson() {
  const baseUrl = `https://${publisherDomain()}`;
  return {
    $schema: MCP_REGISTRY_SCHEMA,
    name: MCP_SERVER.registryName,
    title: DIRECTORY_NAME,
    description: SERVER_DESCRIPTION,
    version: MCP_SERVER.version,
    websiteUrl: baseUrl,
    remotes: remotes(baseUrl),
  };
}
