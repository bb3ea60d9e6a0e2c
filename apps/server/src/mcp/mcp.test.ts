import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { SSEClientTransport } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/client";
import type { InitializeResult } from "@modelcontextprotocol/client";
import { createApiKey } from "@directory/api";
import { MCP_SERVER } from "@directory/api/schemas";
import { businesses, leads, offers } from "@directory/db";
import { type Api, type McpAnswer, startTestServer, type TestServer } from "../testing";
import { stdioToDirectory } from "./stdio-fixtures";

const TOOL_NAMES = [
  "compare_businesses",
  "get_available_cities",
  "get_business_profile",
  "get_buyer_questions",
  "get_category_leaders",
  "get_lead_status",
  "get_listicle",
  "get_my_citations",
  "get_my_visibility_score",
  "get_offers",
  "search_businesses",
  "search_by_keyword",
  "submit_lead",
  "suggest_correction",
];

let server: TestServer;
let client: Client;
const openClients: Client[] = [];

async function connect(transport: Transport) {
  const mcp = new Client({ name: "mcp-test", version: "1.0.0" });
  await mcp.connect(transport);
  openClients.push(mcp);
  return mcp;
}

function httpClient(headers: Record<string, string> = {}) {
  return connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } }));
}

async function call(mcp: Client, name: string, args: Record<string, unknown> = {}) {
  return mcp.callTool({ name, arguments: args });
}

/** A tool's structured content; T is the output of the procedure the tool calls. */
async function structured<T = Record<string, unknown>>(mcp: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(mcp, name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  // The data is carried once, as structuredContent; the text beside it is a compact rendering that names every listing.
  const text = (result.content[0] as { text: string }).text;
  expect(() => JSON.parse(text) as unknown).toThrow();
  for (const listing of ((result.structuredContent as Record<string, unknown> | undefined)?.businesses ?? []) as Pick<Api.TListing, "slug">[])
    expect(text).toContain(listing.slug);
  return result.structuredContent as T;
}

async function leadCount() {
  const [row] = await server.database.db.select({ n: count() }).from(leads);
  return Number(row?.n ?? 0);
}

beforeAll(async () => {
  server = await startTestServer();
  client = await httpClient();
});
afterAll(async () => {
  await Promise.all(openClients.map((mcp) => mcp.close().catch(() => undefined)));
  await server?.close();
});

describe("MCP over stateless Streamable HTTP", () => {
  it("answers an initialize with protocol version 2024-11-05", async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = (await response.json()) as McpAnswer<InitializeResult>;
    expect(body.result!.protocolVersion).toBe("2024-11-05");
    expect(body.result!.serverInfo).toEqual({ name: MCP_SERVER.name, version: MCP_SERVER.version });
    expect(body.result!.instructions).toContain("14 tools");
  });

  it("refuses GET and DELETE with a JSON 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/api/mcp`, { method });
      expect(response.status).toBe(405);
      expect(((await response.json()) as McpAnswer<unknown>).error!.message).toContain("POST");
    }
  });

  it("negotiates the newest protocol and lists exactly the 13 spec tools and suggest_correction, each annotated", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: MCP_SERVER.name, version: MCP_SERVER.version });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!["submit_lead", "suggest_correction"].includes(tool.name));
    }
    expect(tools.find((tool) => tool.name === "submit_lead")?.description).toContain("explicitly agreed");
  });

  it("search_businesses returns what the tRPC procedure and REST serve", async () => {
    const result = await structured<Api.TSearchCategoryOutput>(client, "search_businesses", { category: "dentist", city: "Mumbai" });
    expect(result.total).toBe(5);
    expect(result.rankingModel).toMatch(/premium/i);
    const rest = (await (await fetch(`${server.url}/api/assistant-plugin?category=dentist&city=Mumbai&limit=5`)).json()) as Api.TSearchBusinessesOutput;
    expect(result.businesses.map((b) => b.slug)).toEqual(rest.businesses.map((b) => b.slug));
    const tiers = ["premium", "pro", "basic", "free"];
    const ranks = result.businesses.map((b) => tiers.indexOf(b.planTier));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it("serves the read tools over the same data", async () => {
    const [withOffers] = await server.database.db
      .select({ slug: businesses.slug, name: businesses.name })
      .from(businesses)
      .innerJoin(offers, eq(offers.businessId, businesses.id))
      .where(and(eq(businesses.status, "active"), inArray(businesses.planTier, ["pro", "premium"])))
      .limit(1);
    expect(withOffers).toBeDefined();
    const slug = withOffers!.slug;

    const profile = await structured<Api.TEntityProfile>(client, "get_business_profile", { slug });
    expect(profile.identity.name).toBe(withOffers!.name);

    const offered = await structured<Api.TGetOffersOutput>(client, "get_offers", { slug });
    expect(offered.total).toBeGreaterThan(0);
    expect(offered.offers[0]).toMatchObject({ price: expect.any(String), currency: expect.any(String) });

    const questions = await structured<Api.TGetBuyerQuestionsOutput>(client, "get_buyer_questions", { slug });
    expect(questions.business.slug).toBe(slug);
    expect(questions.total).toBe(questions.questions.length);

    const listicle = await structured<Api.TGetListicleOutput>(client, "get_listicle", { category: "dentist", city: "Mumbai", limit: 3 });
    expect(listicle).toMatchObject({ paidPlacement: false, total: 3 });

    const leaders = await structured<Api.TCategoryLeadersOutput>(client, "get_category_leaders", { category: "dentist", limit: 3 });
    expect(leaders.city).toBeNull();
    expect(leaders.total).toBe(3);

    const [a, b] = listicle.businesses;
    const compared = await structured<Api.TCompareOutput>(client, "compare_businesses", { slugA: a!.slug, slugB: b!.slug });
    expect(compared.businesses.map((x) => x.slug)).toEqual([a!.slug, b!.slug]);

    const cities = await structured<Api.TAvailableCitiesOutput>(client, "get_available_cities", { category: "dentist", limit: 50 });
    expect(cities.cities.map((c) => c.name)).toContain("Mumbai");

    const keyword = await structured<Api.TSearchKeywordOutput>(client, "search_by_keyword", { query: a!.name, limit: 3 });
    expect(keyword.businesses.map((x) => x.slug)).toContain(a!.slug);
  });

  it("turns a procedure error into a readable tool error", async () => {
    const result = await call(client, "get_business_profile", { slug: "no-such-business-anywhere" });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/NOT_FOUND|not found/i);
  });

  it("submit_lead refuses anything but explicit consent and writes no lead", async () => {
    const before = await leadCount();
    const base = {
      slug: "",
      contactName: "Asha",
      contactEmail: "asha@example.com",
      message: "Need a check-up next week",
      idempotencyKey: "mcp-test-refused-1",
    };
    const [target] = await server.database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "active")).limit(1);
    base.slug = target!.slug;
    const statement = "I agree to be contacted by this business about my request.";
    for (const args of [
      base,
      { ...base, consent: { userAgreedToBeContacted: false, statementShownToUser: statement } },
      { ...base, consent: { userAgreedToBeContacted: "yes", statementShownToUser: statement } },
      { ...base, contactEmail: 42, consent: { userAgreedToBeContacted: true, statementShownToUser: statement } },
    ]) {
      const result = await call(client, "submit_lead", args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect((result.content[0] as { text: string }).text.length).toBeGreaterThan(0);
    }
    expect(await leadCount()).toBe(before);

    const lead = await structured<Api.TSubmitLeadOutput>(client, "submit_lead", {
      ...base,
      idempotencyKey: "mcp-test-accepted-1",
      consent: { userAgreedToBeContacted: true, statementShownToUser: statement },
    });
    expect(lead).toMatchObject({ status: "new", businessSlug: target!.slug });
    expect(await leadCount()).toBe(before + 1);
    const status = await structured(client, "get_lead_status", { leadId: lead.leadId });
    expect(status).toMatchObject({ leadId: lead.leadId, status: "new" });
  });

  it("owner tools need a business key and then answer for that business only", async () => {
    for (const name of ["get_my_visibility_score", "get_my_citations"]) {
      const result = await call(client, name);
      expect(result.isError, name).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/business-scoped API key/);
    }
    const adminClient = await httpClient({ authorization: `Bearer ${server.adminKey}` });
    expect((await call(adminClient, "get_my_visibility_score")).isError).toBe(true);

    const [owned] = await server.database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "active")).limit(1);
    const { key } = await createApiKey(server.database.db, { kind: "business", businessSlug: owned!.slug, label: "mcp-test" });
    const ownerClient = await httpClient({ authorization: `Bearer ${key}` });
    const visibility = await structured<Api.TVisibilityOutput>(ownerClient, "get_my_visibility_score");
    expect(visibility.business.slug).toBe(owned!.slug);
    expect(typeof visibility.visibilityScore).toBe("number");
    const citations = await structured<Api.TCitationsOutput>(ownerClient, "get_my_citations", { limit: 5 });
    expect(citations.business.slug).toBe(owned!.slug);
    expect(citations.checks.length).toBeLessThanOrEqual(5);
  });

  it("exposes the business-profile resource template and both prompts", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(expect.objectContaining({ name: "business-profile", uriTemplate: "directory://business/{slug}" }));
    const [one] = await server.database.db
      .select({ slug: businesses.slug, name: businesses.name })
      .from(businesses)
      .where(eq(businesses.status, "active"))
      .limit(1);
    const read = await client.readResource({ uri: `directory://business/${one!.slug}` });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("application/json");
    expect(JSON.parse(content.text).identity.name).toBe(one!.name);

    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "directory://business/{slug}" },
      argument: { name: "slug", value: one!.name },
    });
    expect(completion.completion.values).toContain(one!.slug);

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["compare_top_n", "find_and_contact"]);
    const compare = await client.getPrompt({ name: "compare_top_n", arguments: { category: "dentist", city: "Mumbai", n: "3" } });
    expect((compare.messages[0]!.content as { text: string }).text).toContain("search_businesses");
    const contact = await client.getPrompt({ name: "find_and_contact", arguments: { category: "dentist", city: "Mumbai", need: "a root canal" } });
    const text = (contact.messages[0]!.content as { text: string }).text;
    expect(text).toContain("submit_lead");
    expect(text).toMatch(/explicitly/);
  });
});

describe("MCP over the legacy HTTP+SSE transport", () => {
  it("lists the 14 tools and calls one", async () => {
    const sse = await connect(new SSEClientTransport(new URL(`${server.url}/api/mcp/sse`)));
    const { tools } = await sse.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    const result = await structured<Api.TAvailableCitiesOutput>(sse, "get_available_cities", { category: "dentist", limit: 3 });
    expect(result.total).toBe(3);
  });

  it("rejects messages for an unknown session", async () => {
    const response = await fetch(`${server.url}/api/mcp/messages?sessionId=nope`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(404);
  });
});

describe("MCP over stdio", () => {
  it("lists the 14 tools and calls one through the running server", async () => {
    const stdio = await connect(stdioToDirectory(server.url));
    const { tools } = await stdio.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    const result = await structured<Api.TSearchCategoryOutput>(stdio, "search_businesses", { category: "dentist", city: "Mumbai", limit: 2 });
    expect(result.total).toBe(2);
  });
});
