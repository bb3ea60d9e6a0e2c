import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses } from "@directory/db";
import type { ListToolsResult } from "@modelcontextprotocol/client";
import { MCP_SERVER, type TGetAgentDiscoveryOutput, type TGetAgenticGatewayOutput } from "@directory/api/schemas";
import { getJson, type McpAnswer, type OpenApiDocument, SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await server?.close();
});

const operations = (body: TGetAgenticGatewayOutput) => body.mayCall.map((op) => op.operation);

describe("agent-facing routes", () => {
  it("publishes a discovery manifest with every door, auth, limits and the ranking disclosure", async () => {
    const { status, body, headers } = await getJson<TGetAgentDiscoveryOutput>(server.url, "/api/agent-discovery");
    expect(status).toBe(200);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(body.doors.rest.openapi).toBe("http://directory.test/api/openapi.json");
    expect(body.doors.mcp).toMatchObject({ url: "http://directory.test/api/mcp", protocolVersion: "2024-11-05", serverVersion: MCP_SERVER.version });
    expect(body.auth.scheme).toBe("bearer");
    expect(body.limits).toMatchObject({ anonymousRequestsPerDay: 500, keyedRequestsPerMonth: 10_000, searchResultsMax: 10, partnerFeedPageMax: 500 });
    expect(body.ranking.search).toMatch(/plan tier/);
    expect(body.ranking.listicle).toMatch(/Not a paid placement/);
  });

  it("tells each caller in the handshake exactly what it may call", async () => {
    const anonymous = await getJson<TGetAgenticGatewayOutput>(server.url, "/api/agentic-gateway?agent=test-agent/1.0");
    expect(anonymous.body.identity.kind).toBe("anonymous");
    expect(anonymous.body.agent).toBe("test-agent/1.0");
    expect(operations(anonymous.body)).toContain("searchBusinesses");
    expect(operations(anonymous.body)).not.toContain("getPartnerFeed");
    expect(anonymous.body.mayNotCall.find((op) => op.operation === "getPartnerFeed")?.needs).toBe("partner");

    const { key: partner } = await createApiKey(server.database.db, { kind: "partner" });
    const partnered = await getJson<TGetAgenticGatewayOutput>(server.url, "/api/agentic-gateway", { authorization: `Bearer ${partner}` });
    expect(partnered.body.identity.kind).toBe("partner");
    expect(operations(partnered.body)).toContain("getPartnerFeed");
    expect(operations(partnered.body)).not.toContain("getMyVisibilityScore");

    const [owned] = await server.database.db.select({ slug: businesses.slug, id: businesses.id }).from(businesses).limit(1);
    const { key: business } = await createApiKey(server.database.db, { kind: "business", businessSlug: owned!.slug });
    const owner = await getJson<TGetAgenticGatewayOutput>(server.url, "/api/agentic-gateway", { authorization: `Bearer ${business}` });
    expect(owner.body.identity).toEqual({ kind: "business", businessId: owned!.id });
    expect(operations(owner.body)).toEqual(expect.arrayContaining(["getMyVisibilityScore", "getMyCitations", "transitionLead"]));

    const bad = await getJson(server.url, "/api/agentic-gateway", { authorization: "Bearer bdk_dev_nope" });
    expect(bad.status).toBe(401);
  });

  it("names in the handshake exactly the tools the MCP server lists", async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const listed = ((await response.json()) as McpAnswer<ListToolsResult>).result!.tools.map((tool) => tool.name);

    // A business key may call the owner tools, an admin key every other one.
    const [owned] = await server.database.db.select({ slug: businesses.slug }).from(businesses).limit(1);
    const keys = [
      await createApiKey(server.database.db, { kind: "business", businessSlug: owned!.slug }),
      await createApiKey(server.database.db, { kind: "admin" }),
    ];
    const named = new Set<string>();
    for (const { key } of keys) {
      const { body } = await getJson<TGetAgenticGatewayOutput>(server.url, "/api/agentic-gateway", { authorization: `Bearer ${key}` });
      for (const op of body.mayCall) if (op.mcpTool) named.add(op.mcpTool);
    }
    expect([...named].sort()).toEqual(listed.sort());
  });

  it("serves the assistant plugin manifest and llms.txt pointing at the real API", async () => {
    const plugin = await getJson(server.url, "/.well-known/ai-plugin.json");
    expect(plugin.status).toBe(200);
    expect(plugin.body).toMatchObject({ version: "1.0.0", api: { type: "openapi", url: "http://directory.test/api/openapi.json" } });
    const llms = await fetch(`${server.url}/llms.txt`);
    expect(llms.headers.get("content-type")).toMatch(/text\/plain/);
    const text = await llms.text();
    expect(text).toMatch(/^# Business Directory/);
    expect(text).toContain("http://directory.test/api/agent-discovery");
  });

  it("documents both agent routes in OpenAPI", async () => {
    const { body } = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    expect(body.paths["/api/agent-discovery"]!.get!.operationId).toBe("getAgentDiscovery");
    expect(body.paths["/api/agentic-gateway"]!.get!.operationId).toBe("getAgenticGateway");
  });
});
