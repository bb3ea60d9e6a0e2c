import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { appRouter } from "@directory/api";
import { createMcpServer, listedOutputSchema, listingsOnce, MAX_STRING_LENGTH, profileView, truncateStrings } from "@directory/mcp";
import type { DirectoryClient } from "@directory/sdk";

/** The procedure each tool calls, by tRPC path. */
const TOOL_PROCEDURES: Record<string, string> = {
  search_businesses: "search.searchCategory",
  get_business_profile: "entities.getEntityProfile",
  get_category_leaders: "search.categoryLeaders",
  search_by_keyword: "search.searchKeyword",
  get_buyer_questions: "entities.getBuyerQuestions",
  get_listicle: "search.getListicle",
  compare_businesses: "entities.compare",
  get_available_cities: "search.availableCities",
  submit_lead: "leads.submit",
  get_lead_status: "leads.status",
  get_offers: "entities.getOffers",
  get_my_visibility_score: "owner.visibility",
  get_my_citations: "owner.citations",
  suggest_correction: "corrections.submit",
};

type Procedures = Record<string, { _def: { output?: z.ZodType } }>;

/** Tools whose MCP result is a narrower view of the procedure's (tool-views.ts), by how it is derived. */
const VIEWS: Record<string, (output: never) => { schema: z.ZodType }> = {
  search_businesses: listingsOnce,
  get_category_leaders: listingsOnce,
  search_by_keyword: listingsOnce,
  get_listicle: listingsOnce,
  get_business_profile: profileView,
};
const LISTING_TOOLS = Object.keys(VIEWS).filter((name) => VIEWS[name] === listingsOnce);

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; const?: unknown };

/** Every field a listed schema names, with its type, as path=type lines. */
function fields(schema: Schema, path = ""): string[] {
  const object = schema.items ?? schema;
  return Object.entries(object.properties ?? {}).flatMap(([name, field]) => [
    `${path}${name}=${JSON.stringify(field.type ?? field.enum ?? field.const ?? null)}`,
    ...fields(field, `${path}${name}.`),
  ]);
}

const procedureOutput = (tool: string) => (appRouter._def.procedures as unknown as Procedures)[TOOL_PROCEDURES[tool]!]!._def.output!;

let client: Client;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

beforeAll(async () => {
  // Listing tools calls no procedure: a client that is never used is enough.
  const server = createMcpServer({} as DirectoryClient);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "outputs-test", version: "1.0.0" });
  await client.connect(clientSide);
  ({ tools } = await client.listTools());
});
afterAll(async () => {
  await client?.close();
});

describe("MCP tool outputs are the procedures' output schemas", () => {
  it("every tool lists its procedure's output schema, or the MCP view derived from it", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOL_PROCEDURES).sort());
    for (const tool of tools) {
      const output = procedureOutput(tool.name);
      const view = VIEWS[tool.name];
      const { $schema: _dialect, ...listed } = tool.outputSchema!;
      expect(listed, tool.name).toEqual(listedOutputSchema(view ? view(output as never).schema : output));
    }
  });

  it("a view keeps the procedure's fields and types, leaving some out, and adds only everyListing", () => {
    for (const name of Object.keys(VIEWS)) {
      const procedure = fields(listedOutputSchema(procedureOutput(name)));
      const listed = fields(tools.find((tool) => tool.name === name)!.outputSchema as Schema).filter((field) => !field.startsWith("everyListing"));
      for (const field of listed) expect(procedure, name).toContain(field);
      expect(listed.length, name).toBeLessThan(procedure.length);
    }
    for (const name of LISTING_TOOLS) {
      const schema = tools.find((tool) => tool.name === name)!.outputSchema as Schema;
      const listing = Object.keys(schema.properties!.businesses!.items!.properties!);
      // The boilerplate once per response; long owner text, ids and links left to get_business_profile.
      for (const field of ["rankingModel", "recommended", "directoryCompletenessScoreLabel", "description", "services", "usp", "profileUrl"]) {
        expect(listing, name).not.toContain(field);
      }
      expect(listing, name).toEqual(expect.arrayContaining(["id", "slug", "name", "rating", "reviewCount", "planTier", "verified"]));
      expect(Object.keys(schema.properties!.everyListing!.properties!), name).toEqual(["directoryCompletenessScoreLabel", "rankingModel", "recommended"]);
      expect(Object.keys(schema.properties!), name).toEqual(expect.arrayContaining(["nextCursor", "totalMatches"]));
    }
  });

  it("lists them compact: no descriptions, no required lists", () => {
    const listed = JSON.stringify(tools.map((tool) => tool.outputSchema));
    // As keywords: a description is a string, required a list (a field named description holds a schema).
    expect(listed).not.toMatch(/"description":"|"required":\[/);
    // Nullable fields as a type list, not anyOf with null; no bounds on what a result returns.
    expect(listed).not.toMatch(/\{"type":"null"\}|"maxLength"|"maximum"/);
  });

  it("lists no $schema and no default execution: tools/list is read on every turn", async () => {
    const raw = JSON.stringify(tools);
    expect(raw).not.toContain("$schema");
    expect(raw).not.toContain("taskSupport");
  });

  it("shows one lead view: get_lead_status and submit_lead list the same lead fields, each naming the business", () => {
    const properties = (name: string) => Object.keys(tools.find((tool) => tool.name === name)!.outputSchema!.properties ?? {});
    const leadView = ["leadId", "status", "createdAt", "updatedAt"];
    expect(properties("submit_lead")).toEqual([...leadView, "businessSlug"]);
    expect(properties("get_lead_status")).toEqual([...leadView, "business"]);
  });
});

describe("result size", () => {
  it("cuts strings longer than 2,000 characters, saying so, and leaves the rest alone", () => {
    const long = "x".repeat(MAX_STRING_LENGTH + 500);
    const result = truncateStrings({ short: "ok", n: 3, nested: [{ long }], empty: null });
    expect(result.short).toBe("ok");
    expect(result.n).toBe(3);
    expect(result.empty).toBeNull();
    expect(result.nested[0]!.long).toBe(`${"x".repeat(MAX_STRING_LENGTH)}… [truncated: 500 more characters]`);
  });
});
