import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRegistry, scanOsmExtract } from "@directory/api";
import { OSM_EXTRACTS } from "@directory/api/testing";
import { businesses, registryRecords } from "@directory/db";
import type { TEntityProfile, TGetAgentProfileOutput, TSubmitCorrectionOutput } from "@directory/api/schemas";
import { type McpAnswer, SMALL_TEST_WORLD, startTestServer, type TestServer, type ToolResult } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

/**
 * Issue 41 item 4, freshness tells the truth: a listing whose facts all date from an old extract
 * (Liechtenstein, August 2013) and whose status nobody stated reads unverified, with since when, on
 * REST, agent.json, GraphQL, MCP text and its page; a fresh fact or a stated status keeps it open.
 */

let server: TestServer;
let imported: string[];
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  await importRegistry(server.database.db, await scanOsmExtract(OSM_EXTRACTS.liechtenstein2013), { source: "openstreetmap" });
  const rows = await server.database.db
    .select({ slug: businesses.slug })
    .from(registryRecords)
    .innerJoin(businesses, eq(businesses.id, registryRecords.businessId))
    .where(and(eq(registryRecords.source, "openstreetmap"), eq(businesses.status, "active"), isNull(registryRecords.removedAt)))
    .orderBy(asc(businesses.slug))
    .limit(3);
  imported = rows.map((row) => row.slug);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function call<T = unknown>(method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    // MCP's Streamable HTTP answers JSON only to a client that accepts the event stream too.
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) as T };
}

/** The standing as each door says it. */
async function standings(slug: string) {
  const profile = await call<TEntityProfile>("GET", `/api/v2/entity-profile?slug=${slug}`);
  expect(profile.status).toBe(200);
  const agent = await call<TGetAgentProfileOutput>("GET", `/business/${slug}/agent.json`);
  expect(agent.status).toBe(200);
  const graphql = await call<GraphqlResponse<{ entity: Pick<TEntityProfile, "operatingStatus"> }>>("POST", "/api/graphql", {
    query: `{ entity(slug: "${slug}") { operatingStatus { status since closedOn reopensOn } } }`,
  });
  const mcp = await call<McpAnswer<ToolResult>>("POST", "/api/mcp", {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_business_profile", arguments: { slug } },
  });
  const page = await call<string>("GET", `/business/${slug}`);
  expect(page.status).toBe(200);
  return {
    profile: profile.body,
    agent: agent.body,
    graphql: graphql.body.data!.entity.operatingStatus,
    mcpLine: mcp.body.result!.content[0]!.text.split("\n")[0]!,
    page: page.body,
  };
}

/** An admin-accepted correction: a fact observed now, through the corrections doors. */
async function accepted(body: Record<string, unknown>) {
  const submitted = await call<TSubmitCorrectionOutput>("POST", "/api/v2/corrections", { ...body, evidence: "Called them today" });
  expect(submitted.status).toBe(201);
  expect((await call("POST", `/api/v2/admin/corrections/${submitted.body.correctionId}/accept`, {}, server.adminKey)).status).toBe(200);
}

describe("a listing's standing", () => {
  it("reads unverified on every door when no one stated its status and every fact is stale, since its newest fact went stale", async () => {
    const slug = imported[0]!;
    const seen = await standings(slug);
    const newestStaleAfter = seen.profile.claims.map((claim) => claim.staleAfter).reduce((a, b) => (a > b ? a : b));
    expect(seen.profile.claims.every((claim) => claim.stale)).toBe(true);
    const unverified = { status: "unverified", since: new Date(newestStaleAfter).toISOString() };
    expect(seen.profile.operatingStatus).toEqual(unverified);
    expect(seen.agent.entity.operatingStatus).toEqual(unverified);
    expect(seen.agent.agentInstructions).toMatch(/^Nothing current says this business is open: every fact here went stale by \d{4}-\d{2}-\d{2}/);
    expect(seen.graphql).toEqual({ ...unverified, closedOn: null, reopensOn: null });
    expect(seen.mcpLine).toMatch(new RegExp(`^standing: UNVERIFIED since ${unverified.since.slice(0, 10)} \\(`));
    expect(seen.page).toContain(`<strong>Unverified</strong> since ${unverified.since.slice(0, 10)}`);
  });

  it("reads open once a fact is fresh again (an accepted correction of its phone)", async () => {
    const slug = imported[1]!;
    expect((await standings(slug)).profile.operatingStatus.status).toBe("unverified");
    await accepted({ slug, property: "phone", value: "+423 230 00 00" });
    const seen = await standings(slug);
    expect(seen.profile.operatingStatus).toEqual({ status: "open" });
    expect(seen.agent.entity.operatingStatus).toEqual({ status: "open" });
    expect(seen.graphql.status).toBe("open");
    expect(seen.mcpLine).toMatch(/^standing: open; /);
    expect(seen.page).not.toContain("<strong>Unverified</strong>");
  });

  it("reads the status someone stated, even among stale facts", async () => {
    const slug = imported[2]!;
    await accepted({ slug, operatingStatus: { status: "temporarily_closed", reopensOn: "2099-01-01" } });
    const seen = await standings(slug);
    const stated = { status: "temporarily_closed", reopensOn: "2099-01-01" };
    expect(seen.profile.operatingStatus).toEqual(stated);
    expect(seen.agent.entity.operatingStatus).toEqual(stated);
    expect(seen.graphql.status).toBe("temporarily_closed");
    expect(seen.mcpLine).toMatch(/^standing: TEMPORARILY CLOSED, reopens 2099-01-01; /);
    expect(seen.page).not.toContain("<strong>Unverified</strong>");
  });

  it("a demo business with fresh facts reads open", async () => {
    const [demo] = await server.database.db
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.isDemo, true), eq(businesses.status, "active"), isNull(businesses.temporaryClosure)))
      .orderBy(asc(businesses.slug))
      .limit(1);
    const seen = await standings(demo!.slug);
    expect(seen.profile.operatingStatus).toEqual({ status: "open" });
    expect(seen.mcpLine).toMatch(/^standing: open; /);
  });
});
