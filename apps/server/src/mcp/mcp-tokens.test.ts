import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { TListing } from "@directory/api/schemas";
import { MCP_TOKEN_BUDGETS, toolsListParts } from "@directory/mcp";
import { startTestServer, type TestServer } from "../testing";

/*
 * What an agent pays to read us over MCP, in o200k tokens: a count, not a timing, so it is exact on
 * every machine; the budgets and what they count are MCP_TOKEN_BUDGETS'. The output schemas are over
 * theirs: OUTPUT_SCHEMAS_CEILING holds today's figure so they do not grow (see the closing note of issue 42).
 * Issue 44 raised it by the fields it asks of the two owner tools (method, engines, byEngine: 258)
 * and by each check's cited sources (13).
 */
const OUTPUT_SCHEMAS_CEILING = 3_531;

let server: TestServer;
let mcp: Client;

/** What these tests read of search_businesses' structured content on MCP: the listings, and the boilerplate once in everyListing. */
type McpSearch = { businesses: Pick<TListing, "slug" | "distanceKm">[]; everyListing: { directoryCompletenessScoreLabel: string } };

const tokens = (text: string) => encode(text).length;
const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

async function call(name: string, args: Record<string, unknown>) {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
}

beforeAll(async () => {
  server = await startTestServer();
  mcp = new Client({ name: "tokens-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await server?.close();
});

describe("what an agent reads over MCP, in o200k tokens", () => {
  it("a 10-result search is at most 1,200 tokens of text, naming every listing by slug, the boilerplate once", async () => {
    const search = await call("search_businesses", { category: "dentist", city: "Mumbai", limit: 10 });
    const text = textOf(search);
    const listings = (search.structuredContent as McpSearch).businesses;
    expect(listings).toHaveLength(10);
    expect(tokens(text)).toBeLessThanOrEqual(MCP_TOKEN_BUDGETS.searchText);
    for (const listing of listings) expect(text).toContain(listing.slug);
    // The data is carried once: the text is a rendering, not the JSON again.
    expect(() => JSON.parse(text) as unknown).toThrow();
    // On MCP the boilerplate is not in each listing but once, in everyListing, and said once in the text.
    for (const listing of listings) expect(listing).not.toHaveProperty("rankingModel");
    const label = (search.structuredContent as McpSearch).everyListing.directoryCompletenessScoreLabel;
    expect(text.split(label)).toHaveLength(2);
    expect(text.match(/plan-neutral-directory-completeness/g)).toHaveLength(1);
  });

  it("a 10-result search near a point and open at an instant stays within 1,200 tokens, each row saying when it next changes", async () => {
    const args = { category: "dentist", city: "Mumbai", limit: 10, openAt: "2026-05-12T10:00:00+05:30", near: "19.07,72.87", radiusKm: 20 };
    const search = await call("search_businesses", args);
    const text = textOf(search);
    const listings = (search.structuredContent as McpSearch).businesses;
    expect(listings).toHaveLength(10);
    expect(tokens(text)).toBeLessThanOrEqual(MCP_TOKEN_BUDGETS.searchText);
    // Open at 10:00 on a Tuesday: every row says when it closes, as a weekday and local time.
    expect(text.match(/\| closes Tu \d{2}:\d{2} \|/g)).toHaveLength(10);
    for (const listing of listings) expect(text).toContain(` | ${listing.distanceKm!}`);
  });

  it("a profile's text costs less than its structuredContent", async () => {
    const search = await call("search_businesses", { category: "dentist", city: "Mumbai", limit: 1 });
    const slug = (search.structuredContent as McpSearch).businesses[0]!.slug;
    const profile = await call("get_business_profile", { slug });
    expect(textOf(profile)).toContain(slug);
    expect(tokens(textOf(profile))).toBeLessThan(tokens(JSON.stringify(profile.structuredContent)));
  });

  it("a 10-result search is at most 1,800 tokens of structuredContent", async () => {
    const search = await call("search_businesses", { category: "dentist", city: "Mumbai", limit: 10 });
    expect(tokens(JSON.stringify(search.structuredContent))).toBeLessThanOrEqual(MCP_TOKEN_BUDGETS.searchStructured);
  });

  it("tools/list as a model reads it and the instructions stay within their budgets, the output schemas under their ceiling", async () => {
    const { tools } = await mcp.listTools();
    expect(tools).toHaveLength(14);
    const parts = toolsListParts(tools);
    expect(tokens(parts.asRead)).toBeLessThanOrEqual(MCP_TOKEN_BUDGETS.toolsAsRead);
    expect(tokens(parts.outputSchemas)).toBeLessThanOrEqual(OUTPUT_SCHEMAS_CEILING);
    expect(tokens(mcp.getInstructions() ?? "")).toBeLessThanOrEqual(MCP_TOKEN_BUDGETS.instructions);
  });
});
