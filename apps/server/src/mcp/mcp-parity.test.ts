import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createApiKey } from "@directory/api";
import type { TEntityProfile } from "@directory/api/schemas";
import { businesses } from "@directory/db";
import { getJson, startTestServer, type TestServer } from "../testing";

/*
 * What REST tells an agent, MCP tells it too: a correction's status after suggest_correction, every
 * claim's staleAfter and stale, and for a keyed caller the profile's history and asOf.
 */

let server: TestServer;
const opened: Client[] = [];

async function connect(headers: Record<string, string> = {}) {
  const client = new Client({ name: "parity-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  opened.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } }));
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(opened.map((client) => client.close().catch(() => undefined)));
  await server?.close();
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
    const mcp = await connect({ "x-forwarded-for": "198.51.100.77" });
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
    const mcp = await connect();
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
    const keyed = await connect({ authorization: `Bearer ${key}` });
    const withHistory = await keyed.callTool({ name: "get_business_profile", arguments: { slug, history: true } });
    expect(withHistory.isError, JSON.stringify(withHistory.content)).toBeFalsy();
    expect((withHistory.structuredContent as TEntityProfile).history).toBe(true);
    const asOf = new Date().toISOString();
    const then = await keyed.callTool({ name: "get_business_profile", arguments: { slug, asOf } });
    expect(then.isError, JSON.stringify(then.content)).toBeFalsy();
    expect((then.structuredContent as TEntityProfile).asOf).toBe(asOf);
    const anonymous = await connect();
    const refused = await anonymous.callTool({ name: "get_business_profile", arguments: { slug, asOf } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("401");
  });
});
