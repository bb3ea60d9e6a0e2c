import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { TSearchBusinessesOutput, TSearchKeywordOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";

/** A miss's 404 names the closest valid values. */
type MissBody = ErrorBody & { suggestions: string[] };

/*
 * Issue 22, item 3: every miss points the way, on every door. An unknown category or city names
 * its closest valid values and where all are listed; keyword search reads a city or category inside
 * its words, corrects misspellings, relaxes to the most words that match together, and says so.
 */
let server: TestServer;
let mcp: Client;

beforeAll(async () => {
  server = await startTestServer();
  mcp = new Client({ name: "misses-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await server?.close();
});

async function callTool(name: string, args: Record<string, unknown>) {
  return mcp.callTool({ name, arguments: args });
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

describe("an unknown category or city names the closest valid values", () => {
  it("REST /api/v2/businesses with dentst: 404 naming dentist and how to list categories", async () => {
    const { status, body } = await getJson<MissBody>(server.url, "/api/v2/businesses?category=dentst&city=Mumbai");
    expect(status).toBe(404);
    expect(body.code).toBe("NOT_FOUND");
    expect(body.suggestions).toEqual(["dentist"]);
    expect(body.error).toMatch(/Unknown category "dentst".*"dentist".*GET \/api\/v2\/categories/);
  });

  it("REST /api/v2/businesses with a misspelt city: 404 naming the closest cities and how to list them", async () => {
    const { status, body } = await getJson<MissBody>(server.url, "/api/v2/businesses?category=dentist&city=Mumbay");
    expect(status).toBe(404);
    expect(body.suggestions[0]).toBe("Mumbai");
    expect(body.error).toMatch(/Unknown city "Mumbay".*"Mumbai".*get_available_cities/);
  });

  it("the assistant plugin keeps its 200 and empty list, and adds suggestions", async () => {
    const miss = await getJson<TSearchBusinessesOutput>(server.url, "/api/assistant-plugin?category=dentst&city=Mumbai");
    expect(miss.status).toBe(200);
    expect(miss.body.businesses).toEqual([]);
    expect(miss.body.suggestions).toMatchObject({ unknown: "category", input: "dentst", closest: ["dentist"] });
    expect(miss.body.suggestions!.message).toMatch(/directory:\/\/categories/);
    const city = await getJson<TSearchBusinessesOutput>(server.url, "/api/assistant-plugin?category=dentist&city=Mumbay");
    expect(city.body.suggestions).toMatchObject({ unknown: "city", closest: expect.arrayContaining(["Mumbai"]) });
    const hit = await getJson<TSearchBusinessesOutput>(server.url, "/api/assistant-plugin?category=dentist&city=Mumbai");
    expect(hit.body.suggestions).toBeNull();
  });

  it("MCP search_businesses with dentst is an error that names dentist", async () => {
    const result = await callTool("search_businesses", { category: "dentst", city: "Mumbai" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/"dentist"/);
  });
});

describe("keyword search reads the words it was given", () => {
  it.each(["dentist in bombay", "dentst in bombay"])("REST: %s gives Mumbai dentists and says how it read the words", async (query) => {
    const { status, body } = await getJson<TSearchKeywordOutput>(server.url, `/api/v2/keyword-search?query=${encodeURIComponent(query)}`);
    expect(status).toBe(200);
    expect(body.city!.name).toBe("Mumbai");
    expect(body.cityFromWords).toBe("in bombay");
    expect(body.wordsUsed).toEqual(["dentist"]);
    expect(body.wordsDropped).toEqual([]);
    expect(body.matchedBy).toBe(query.startsWith("dentst") ? "corrected_words" : "all_words");
    if (query.startsWith("dentst")) expect(body.corrections).toEqual([{ from: "dentst", to: "dentist" }]);
    expect(body.businesses.length).toBeGreaterThan(0);
    for (const listing of body.businesses) expect(listing).toMatchObject({ city: "Mumbai", category: "Dentist" });
  });

  it("REST: words that match nothing together relax to the words that do, naming the dropped ones", async () => {
    const { body: none } = await getJson<TSearchKeywordOutput>(server.url, "/api/v2/keyword-search?query=xylophone&city=Mumbai");
    expect(none).toMatchObject({ matchedBy: "nothing", total: 0 });
    const { status, body } = await getJson<TSearchKeywordOutput>(server.url, "/api/v2/keyword-search?query=root%20canal%20xylophone&city=Mumbai");
    expect(status).toBe(200);
    expect(body).toMatchObject({ matchedBy: "some_words", wordsUsed: ["root", "canal"], wordsDropped: ["xylophone"] });
    expect(body.businesses.length).toBeGreaterThan(0);
    expect(body.businesses[0]).toMatchObject({ city: "Mumbai", category: "Dentist", matchedBy: "full_text" });
  });

  it("REST: a query whose words match as given is answered as before, every word used", async () => {
    const { body } = await getJson<TSearchKeywordOutput>(server.url, "/api/v2/keyword-search?query=root%20canal&city=Mumbai");
    expect(body).toMatchObject({ matchedBy: "all_words", wordsUsed: ["root", "canal"], wordsDropped: [], corrections: [], cityFromWords: null });
  });

  it("MCP search_by_keyword discloses the same", async () => {
    const read = await callTool("search_by_keyword", { query: "dentst in bombay" });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({
      city: { name: "Mumbai" },
      matchedBy: "corrected_words",
      wordsUsed: ["dentist"],
      cityFromWords: "in bombay",
    });
    const relaxed = await callTool("search_by_keyword", { query: "root canal xylophone", city: "Mumbai" });
    expect(relaxed.structuredContent).toMatchObject({ matchedBy: "some_words", wordsDropped: ["xylophone"] });
  });
});

describe("find_and_contact step 1, followed literally", () => {
  it.each([
    { category: "dentist", city: "Mumbai", need: 'I need a root canal this week, it really hurts "badly"' },
    { category: "dentists", city: "bombay", need: "teeth whitening before my wedding on saturday" },
  ])("every call it names succeeds and finds candidates ($category, $city)", async (args) => {
    const prompt = await mcp.getPrompt({ name: "find_and_contact", arguments: args });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const step1 = text.split("\n").find((line) => line.startsWith("1. "))!;
    // "Call TOOL with ARG "VALUE" and ARG "VALUE", and TOOL with ..., to find candidates."
    const calls = [...step1.matchAll(/(\w+) with ((?:\w+ "[^"]*"(?: and )?)+)/g)].map(([, tool, args]) => ({
      tool: tool!,
      args: Object.fromEntries([...args!.matchAll(/(\w+) "([^"]*)"/g)].map(([, name, value]) => [name, value])),
    }));
    expect(calls.map((call) => call.tool)).toEqual(["search_businesses", "search_by_keyword"]);
    for (const { tool, args: toolArgs } of calls) {
      const result = await callTool(tool, toolArgs);
      expect(result.isError, `${tool} ${JSON.stringify(toolArgs)}: ${textOf(result)}`).toBeFalsy();
      expect(((result.structuredContent as Record<string, unknown>).businesses as unknown[]).length, tool).toBeGreaterThan(0);
    }
  });
});
