import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { appRouter } from "@directory/api";
import { createMcpServer, listedOutputSchema } from "@directory/mcp";
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
};

type Procedures = Record<string, { _def: { output?: z.ZodType } }>;

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
  it("every tool lists exactly its procedure's output schema", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOL_PROCEDURES).sort());
    for (const tool of tools) {
      const output = (appRouter._def.procedures as unknown as Procedures)[TOOL_PROCEDURES[tool.name]!]!._def.output!;
      const { $schema: _dialect, ...listed } = tool.outputSchema!;
      expect(listed, tool.name).toEqual(listedOutputSchema(output));
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
