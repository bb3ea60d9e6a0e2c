import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  ZAvailableCitiesInput,
  ZBySlugInput,
  ZCategoryLeadersInput,
  ZCitationsInput,
  ZCompareInput,
  ZGetEntityProfileInput,
  ZGetListicleInput,
  ZLeadStatusInput,
  ZSearchCategoryInput,
  ZSearchKeywordInput,
  ZSubmitCorrectionInput,
  ZSubmitLeadInput,
} from "@directory/api/schemas";
import { compactInput } from "@directory/mcp";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "../testing";

/** What these tests read of a JSON Schema: a tool's listed input, or its procedure's own. */
interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** Each tool's input is its procedure's input schema; null: the procedure takes no input. */
const PROCEDURE_INPUTS: Record<string, z.ZodObject | null> = {
  search_businesses: ZSearchCategoryInput,
  get_business_profile: ZGetEntityProfileInput,
  get_category_leaders: ZCategoryLeadersInput,
  search_by_keyword: ZSearchKeywordInput,
  get_buyer_questions: ZBySlugInput,
  get_listicle: ZGetListicleInput,
  compare_businesses: ZCompareInput,
  get_available_cities: ZAvailableCitiesInput,
  submit_lead: ZSubmitLeadInput,
  get_lead_status: ZLeadStatusInput,
  get_offers: ZBySlugInput,
  get_my_visibility_score: null,
  get_my_citations: ZCitationsInput,
  suggest_correction: ZSubmitCorrectionInput,
};

/** What a procedure's input schema says to a client: JSON Schema of what it accepts. */
function procedureJsonSchema(schema: z.ZodObject): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", target: "draft-7" }) as JsonSchema;
  return rest;
}

/** Every keyword of a listed schema, with its path: what the compact view may differ in is checked by name. */
function keywords(schema: unknown, path = ""): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [];
  return Object.entries(schema).flatMap(([key, value]: [string, unknown]) =>
    key === "properties"
      ? Object.entries(value as Record<string, unknown>).flatMap(([name, field]) => keywords(field, `${path}${name}.`))
      : [`${path}${key}`, ...(key === "enum" || key === "required" ? [] : keywords(value, `${path}${key}.`))],
  );
}

let server: TestServer;
let client: Client;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  client = new Client({ name: "schema-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
  ({ tools } = await client.listTools());
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("MCP tool inputs are the procedures' input schemas", () => {
  it("submit_lead lists the procedure's fields, types, required fields and format; the procedure still enforces the string bounds it leaves out", async () => {
    const tool = tools.find((candidate) => candidate.name === "submit_lead")!;
    const listed = tool.inputSchema as JsonSchema;
    const procedure = procedureJsonSchema(ZSubmitLeadInput);
    expect(Object.keys(listed.properties!)).toEqual(Object.keys(procedure.properties!));
    expect(listed.required).toEqual(procedure.required);
    expect(listed.properties!.consent!.required).toEqual(procedure.properties!.consent!.required);
    expect(listed.properties!.consent!.properties!.userAgreedToBeContacted!.const).toBe(true);
    expect(listed.properties!.consent!.properties!.consentedAt!.format).toBe("date-time");
    expect(JSON.stringify(listed)).not.toMatch(/"maxLength"|"minLength"|"pattern"/);
    // Left out of the listing, not out of the rule: the procedure refuses, naming the field.
    const valid = {
      slug: "any-business",
      contactName: "Asha",
      contactPhone: "+91 22 1234 5678",
      message: "Hello",
      idempotencyKey: "0d2c4a9e-key",
      consent: { userAgreedToBeContacted: true, statementShownToUser: "I agree to be contacted by this business." },
    };
    for (const [field, bad] of [
      ["message", { message: "x".repeat(2001) }],
      ["contactPhone", { contactPhone: "call me" }],
      ["idempotencyKey", { idempotencyKey: "short" }],
    ] as const) {
      const result = await client.callTool({ name: "submit_lead", arguments: { ...valid, ...bad } });
      expect(result.isError, field).toBe(true);
      expect((result.content[0] as { text: string }).text, field).toContain(field);
    }
  });

  it("every tool lists the compact view of its procedure's input schema: only string bounds, examples and additionalProperties false left out", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(PROCEDURE_INPUTS).sort());
    for (const tool of tools) {
      const schema = PROCEDURE_INPUTS[tool.name];
      const procedure = schema ? procedureJsonSchema(schema) : { type: "object", properties: {} };
      const listed = tool.inputSchema as JsonSchema;
      expect(listed, tool.name).toEqual(compactInput(procedure));
      // The view drops keywords, never a field or a rule other than these (descriptions, enums, defaults, ranges stay); examples are not rules.
      const dropped = keywords(procedure).filter((keyword) => !keywords(listed).includes(keyword));
      for (const keyword of dropped) expect(keyword, tool.name).toMatch(/(^|\.)(minLength|maxLength|pattern|example|additionalProperties)$/);
    }
    const search = tools.find((tool) => tool.name === "search_businesses")!.inputSchema as JsonSchema;
    expect(search.properties!.city!.description).toMatch(/omit for national/);
    expect(search.properties!.limit).toMatchObject({ minimum: 1, maximum: 10, default: 5 });
  });

  it("refuses what the procedure refuses before anything is called", async () => {
    const result = await client.callTool({ name: "get_available_cities", arguments: { category: "dentist", limit: 51 } });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/limit/);
  });

  it("refuses an unknown argument on every tool that takes arguments, naming the accepted ones, instead of dropping it", async () => {
    for (const tool of tools.filter((candidate) => Object.keys(candidate.inputSchema.properties ?? {}).length > 0)) {
      const result = await client.callTool({ name: tool.name, arguments: { offset: 10 } });
      expect(result.isError, tool.name).toBe(true);
      const text = (result.content[0] as { text: string }).text;
      expect(text, tool.name).toMatch(/Unknown argument offset: this tool accepts /);
      for (const name of Object.keys(tool.inputSchema.properties!)) expect(text, tool.name).toContain(name);
    }
  });
});
