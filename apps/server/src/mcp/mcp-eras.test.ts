import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { createApiKey } from "@directory/api";
import { MCP_PROTOCOL_VERSIONS, MCP_SERVER, type TEntityProfile } from "@directory/api/schemas";
import { businesses } from "@directory/db";
import { getJson, startTestServer, type TestServer } from "../testing";
import { stdioToDirectory } from "./stdio-fixtures";

/*
 * One endpoint, every protocol revision served: a real client of each era lists the tools and runs
 * a search. 2024-11-05 (the spec's) and 2025-11-25 open with `initialize`; 2026-07-28 opens with
 * `server/discover` and then sends each request on its own, statelessly. And what REST tells an
 * agent, MCP tells it too: a correction's status after suggest_correction, every claim's staleAfter
 * and stale, and for a keyed caller the profile's history and asOf. One server for both.
 */

const MODERN = "2026-07-28";

let server: TestServer;
const opened: Client[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(opened.map((client) => client.close().catch(() => undefined)));
  await server?.close();
});

async function connect(transport: Transport, options: ConstructorParameters<typeof Client>[1] = {}) {
  const client = new Client({ name: "eras-test", version: "1.0.0" }, options);
  opened.push(client);
  await client.connect(transport);
  return client;
}

const overHttp = (headers: Record<string, string> = {}) => new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } });

/** A client that negotiates the newest revision, with the caller's headers (a key, an address). */
const connectModern = (headers: Record<string, string> = {}) => connect(overHttp(headers), { versionNegotiation: { mode: "auto" } });

/** Lists the tools and runs one search, as an agent's first two steps. */
async function listAndSearch(client: Client) {
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(14);
  expect(tools.map((tool) => tool.name)).toContain("search_businesses");
  const result = await client.callTool({ name: "search_businesses", arguments: { category: "dentist", city: "Mumbai", limit: 2 } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect((result.structuredContent as { businesses: unknown[] }).businesses).toHaveLength(2);
}

describe("MCP over HTTP, one client per protocol era", () => {
  it("serves a 2024-11-05 client through initialize", async () => {
    const client = await connect(overHttp(), { supportedProtocolVersions: ["2024-11-05"] });
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getNegotiatedProtocolVersion()).toBe("2024-11-05");
    await listAndSearch(client);
  });

  it("serves a 2025-11-25 client through initialize", async () => {
    const client = await connect(overHttp());
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    await listAndSearch(client);
  });

  it("serves a 2026-07-28 client through server/discover, and an auto-negotiating client lands there too", async () => {
    const pinned = await connect(overHttp(), { versionNegotiation: { mode: { pin: MODERN } } });
    expect(pinned.getProtocolEra()).toBe("modern");
    expect(pinned.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(pinned.getServerVersion()).toMatchObject({ name: MCP_SERVER.name, version: MCP_SERVER.version });
    await listAndSearch(pinned);
    const auto = await connectModern();
    expect(auto.getProtocolEra()).toBe("modern");
    await listAndSearch(auto);
  });

  it("answers server/discover with its revision and cache hints on what is the same for every caller", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const post = (id: number, method: string) =>
      fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": method },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: meta } }),
      });
    const discover = await post(1, "server/discover");
    expect(discover.status, await discover.clone().text()).toBe(200);
    const { result } = (await discover.json()) as {
      result: { supportedVersions: string[]; _meta: Record<string, { name: string }>; ttlMs: number; cacheScope: string };
    };
    // server/discover names the revisions of its own era; the initialize era's are offered through initialize.
    expect(result.supportedVersions).toContain(MODERN);
    for (const version of result.supportedVersions) expect(MCP_PROTOCOL_VERSIONS).toContain(version);
    expect(result._meta["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: MCP_SERVER.name, version: MCP_SERVER.version });
    expect(result).toMatchObject({ cacheScope: "public" });
    expect(result.ttlMs).toBeGreaterThan(0);
    const list = (await (await post(2, "tools/list")).json()) as { result: { tools: unknown[]; ttlMs: number; cacheScope: string } };
    expect(list.result.tools).toHaveLength(14);
    expect(list.result).toMatchObject({ cacheScope: "public" });
  });
});

describe("MCP over stdio, the 2026-07-28 era", () => {
  it("negotiates 2026-07-28 with an auto-negotiating client, lists the tools and calls a search", async () => {
    const client = await connect(stdioToDirectory(server.url), { versionNegotiation: { mode: "auto" } });
    expect(client.getProtocolEra()).toBe("modern");
    await listAndSearch(client);
  });
});

async function someSlug() {
  const [row] = await server.database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug))
    .limit(1);
  return row!.slug;
}

describe("MCP answers what REST answers", () => {
  it("reads a suggested correction's status at directory://corrections/{id}, as GET /api/v2/corrections/{id}", async () => {
    const mcp = await connectModern({ "x-forwarded-for": "198.51.100.77" });
    const slug = await someSlug();
    const suggested = await mcp.callTool({
      name: "suggest_correction",
      arguments: { slug, property: "phone", value: "+41 44 000 11 99", evidence: "their shop sign" },
    });
    expect(suggested.isError, JSON.stringify(suggested.content)).toBeFalsy();
    const { correctionId } = suggested.structuredContent as { correctionId: string };
    const read = await mcp.readResource({ uri: `directory://corrections/${correctionId}` });
    const overMcp = JSON.parse((read.contents[0] as { text: string }).text) as { status: string };
    const overRest = await getJson<{ status: string }>(server.url, `/api/v2/corrections/${correctionId}`);
    expect(overMcp).toEqual(overRest.body);
    expect(overMcp.status).toBe("pending");
    const templates = await mcp.listResourceTemplates();
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain("directory://corrections/{id}");
  });

  it("gives every claim of a profile its staleAfter and stale", async () => {
    const mcp = await connectModern();
    const profile = (await mcp.callTool({ name: "get_business_profile", arguments: { slug: await someSlug() } })).structuredContent as TEntityProfile;
    expect(profile.claims.length).toBeGreaterThan(0);
    for (const claim of profile.claims) {
      expect(claim).toHaveProperty("staleAfter");
      expect(typeof claim.stale).toBe("boolean");
    }
  });

  it("answers history and asOf to a keyed caller, and refuses them without a key as REST does", async () => {
    const slug = await someSlug();
    const { key } = await createApiKey(server.database.db, { kind: "developer", label: "mcp-parity" });
    const keyed = await connectModern({ authorization: `Bearer ${key}` });
    const withHistory = await keyed.callTool({ name: "get_business_profile", arguments: { slug, history: true } });
    expect(withHistory.isError, JSON.stringify(withHistory.content)).toBeFalsy();
    expect((withHistory.structuredContent as TEntityProfile).history).toBe(true);
    const asOf = new Date().toISOString();
    const then = await keyed.callTool({ name: "get_business_profile", arguments: { slug, asOf } });
    expect(then.isError, JSON.stringify(then.content)).toBeFalsy();
    expect((then.structuredContent as TEntityProfile).asOf).toBe(asOf);
    const anonymous = await connectModern();
    const refused = await anonymous.callTool({ name: "get_business_profile", arguments: { slug, asOf } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("401");
  });
});
