import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { MCP_PROTOCOL_VERSIONS, MCP_SERVER } from "@directory/api/schemas";
import { startTestServer, type TestServer } from "../testing";
import { stdioToDirectory } from "./stdio-fixtures";

/*
 * One endpoint, every protocol revision served: a real client of each era lists the tools and runs
 * a search. 2024-11-05 (the spec's) and 2025-11-25 open with `initialize`; 2026-07-28 opens with
 * `server/discover` and then sends each request on its own, statelessly.
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

const overHttp = () => new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));

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
    const auto = await connect(overHttp(), { versionNegotiation: { mode: "auto" } });
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
