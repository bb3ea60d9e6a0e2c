import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AI_CATALOG_MEDIA_TYPE,
  MCP_PROTOCOL_VERSIONS,
  MCP_REGISTRY_SCHEMA,
  MCP_SERVER,
  MCP_SERVER_CARD_MEDIA_TYPE,
  MCP_SERVER_CARD_SCHEMA,
  registryServerJson,
  type TGetAgentDiscoveryOutput,
} from "@directory/api/schemas";
import { repoRoot } from "./doc-examples";
import { getJson, SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * The discovery documents as an agent fetches them, validated against the schemas their
 * specifications publish (fixtures/schemas, with their sources), and said the same way as the MCP
 * server answers once connected.
 */

const schemaFile = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/schemas/${name}`, import.meta.url)), "utf8")) as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
// The card schema holds its definitions only; a card is its ServerCard.
ajv.addSchema(schemaFile("mcp-server-card.v1.schema.json"), "card");
const validateCard = ajv.getSchema("card#/$defs/ServerCard")!;
const validateRegistry = ajv.compile(schemaFile("mcp-registry-server.schema.json"));
const validateCatalog = ajv.compile(schemaFile("ai-catalog.cddl-transcription.schema.json"));

/** The validator's errors, readable in a failed assertion. */
const errorsOf = (validate: { errors?: unknown }) => JSON.stringify(validate.errors ?? [], null, 1);

interface CatalogEntry {
  identifier: string;
  type: string;
  url: string;
}
interface ServerCard {
  name: string;
  version: string;
  remotes: { type: string; url: string; supportedProtocolVersions: string[] }[];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await server?.close();
});

/** A document's path on the test server from its public URL (the test server's public base is http://directory.test). */
const pathOf = (url: string) => new URL(url).pathname;

describe("the AI Catalog and the MCP server card", () => {
  it("serves the AI Catalog at its well-known address, valid, with an entry for the server card", async () => {
    const { status, body, headers } = await getJson<{ entries: CatalogEntry[] }>(server.url, "/.well-known/ai-catalog.json");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe(`${AI_CATALOG_MEDIA_TYPE}; charset=utf-8`);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(headers.get("cache-control")).toMatch(/^public/);
    expect(validateCatalog(body), errorsOf(validateCatalog)).toBe(true);
    const card = body.entries.find((entry) => entry.type === MCP_SERVER_CARD_MEDIA_TYPE);
    expect(card).toMatchObject({ identifier: "urn:air:directory.example:mcp:business-directory", url: "http://directory.test/api/mcp/server-card" });
    // Every entry is served here, with the media type it declares.
    for (const entry of body.entries) {
      const response = await fetch(`${server.url}${pathOf(entry.url)}`);
      expect(response.status, entry.url).toBe(200);
      expect(response.headers.get("content-type"), entry.url).toContain(entry.type);
    }
  });

  it("serves the server card, valid, naming the server, its version and every protocol revision served; its old address too", async () => {
    const { status, body, headers } = await getJson<ServerCard>(server.url, "/api/mcp/server-card", { accept: MCP_SERVER_CARD_MEDIA_TYPE });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe(`${MCP_SERVER_CARD_MEDIA_TYPE}; charset=utf-8`);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(validateCard(body), errorsOf(validateCard)).toBe(true);
    expect(body).toMatchObject({ $schema: MCP_SERVER_CARD_SCHEMA, name: MCP_SERVER.registryName, version: MCP_SERVER.version });
    expect(body.remotes).toEqual([
      expect.objectContaining({ type: "streamable-http", url: "http://directory.test/api/mcp", supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] }),
      expect.objectContaining({ type: "sse", url: "http://directory.test/api/mcp/sse", supportedProtocolVersions: MCP_PROTOCOL_VERSIONS.slice(1) }),
    ]);
    // Primitives are listed at runtime (tools/list), never in the card.
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(["tools"]));
    const alias = await getJson(server.url, "/.well-known/mcp/server-card.json");
    expect(alias.headers.get("content-type")).toBe(headers.get("content-type"));
    expect(alias.body).toEqual(body);
  });

  it("says what the MCP server answers to initialize: its version, and each initialize-era revision the card lists", async () => {
    const { body: card } = await getJson<ServerCard>(server.url, "/api/mcp/server-card");
    const [streamable] = card.remotes;
    for (const protocolVersion of streamable!.supportedProtocolVersions.slice(1)) {
      const response = await fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "discovery-test", version: "1.0.0" } },
        }),
      });
      const text = await response.text();
      const message = JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
        result: { protocolVersion: string; serverInfo: { version: string } };
      };
      expect(message.result.protocolVersion, protocolVersion).toBe(protocolVersion);
      expect(message.result.serverInfo.version).toBe(card.version);
    }
  });

  it("says what server/discover answers a 2026-07-28 request: the version, and only revisions the card lists", async () => {
    const { body: card } = await getJson<ServerCard>(server.url, "/api/mcp/server-card");
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "discovery-test", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const response = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "server/discover",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const { result } = JSON.parse(text) as { result: { supportedVersions: string[]; _meta?: Record<string, { name: string; version: string }> } };
    expect(result.supportedVersions).toContain("2026-07-28");
    for (const version of result.supportedVersions) expect(card.remotes[0]!.supportedProtocolVersions).toContain(version);
    expect(result._meta?.["io.modelcontextprotocol/serverInfo"]?.version).toBe(card.version);
  });

  it("names every revision served in the discovery manifest and llms.txt, with the card and the catalog", async () => {
    const { body } = await getJson<TGetAgentDiscoveryOutput>(server.url, "/api/agent-discovery");
    expect(body.doors.mcp.protocolVersions).toEqual([...MCP_PROTOCOL_VERSIONS]);
    expect(body.doors.mcp.serverCard).toBe("http://directory.test/api/mcp/server-card");
    expect(body.links.aiCatalog).toBe("http://directory.test/.well-known/ai-catalog.json");
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    for (const version of MCP_PROTOCOL_VERSIONS) expect(llms).toContain(version);
    expect(llms).toContain("http://directory.test/api/mcp/server-card");
    expect(llms).toContain("http://directory.test/.well-known/ai-catalog.json");
  });
});

describe("the MCP registry's server.json", () => {
  const checkedIn = readFileSync(join(repoRoot, "server.json"), "utf8");

  it("is valid against the registry's schema and names its current release", () => {
    const document = JSON.parse(checkedIn) as { $schema: string };
    expect(validateRegistry(document), errorsOf(validateRegistry)).toBe(true);
    expect(document.$schema).toBe(MCP_REGISTRY_SCHEMA);
  });

  it("is the one built from the agent facts (after a change, `npx vitest run -u` on this file writes it again)", async () => {
    await expect(`${JSON.stringify(registryServerJson(), null, 2)}\n`).toMatchFileSnapshot(join(repoRoot, "server.json"));
  });
});
