import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, corrections, leads } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * Issue 26 item 10 and issue 38 item 3: text a person cannot see never counts as text. Twelve of
 * each class below once passed the "10 visible characters" consent rule; each is refused here on
 * every door a lead comes through (REST, tRPC, MCP), and so are contact names, messages and
 * correction evidence made only of such code points.
 */
const INVISIBLE_CLASSES: Record<string, string> = {
  "U+3164 Hangul filler": "\u3164",
  "U+115F Hangul choseong filler": "\u115F",
  "U+FFA0 halfwidth Hangul filler": "\uFFA0",
  "U+2800 blank Braille pattern": "\u2800",
  "U+034F combining grapheme joiner": "\u034F",
  "U+0301 lone combining acute": "\u0301",
  "U+FE0F variation selector 16": "\uFE0F",
  "U+E0100 variation selector 17": "\u{E0100}",
  "U+061C Arabic letter mark": "\u061C",
  "U+180E Mongolian vowel separator": "\u180E",
  "U+17B4 Khmer vowel inherent aq": "\u17B4",
  "U+1D173 musical symbol begin beam": "\u{1D173}",
  "U+0301 behind U+200B, a combining mark behind a hidden character": "\u200B\u0301",
  "U+0301 on U+2800, a combining mark on a blank": "\u2800\u0301",
  "U+1D159 musical symbol null notehead": "\u{1D159}",
  "U+FFFC object replacement character": "\uFFFC",
  "U+FFFD replacement character": "\uFFFD",
  "U+0378 unassigned": "\u0378",
  "U+50000 unassigned, plane 5": "\u{50000}",
  "U+FDD0 noncharacter": "\uFDD0",
  "U+10FFFF noncharacter": "\u{10FFFF}",
  "U+E000 private use": "\uE000",
  "U+F0000 supplementary private use": "\u{F0000}",
};

/** A name or a message of blank, placeholder, unassigned, noncharacter and private-use code points. */
const NOTHING_VISIBLE = "\u200B\u0301\u{1D159}\uFFFC\u2800\u0378\uFDD0\uE000";

let server: TestServer;
let slug: string;
let mcp: Client;

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD, rateLimits: { leadsPerAddressPerHour: 1_000, correctionsPerAddressPerHour: 1_000 } });
  const [row] = await server.database.db.select({ slug: businesses.slug }).from(businesses).limit(1);
  slug = row!.slug;
  mcp = new Client({ name: "invisible-text-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

function lead(statement: string, contactName = "Asha Rao", key = `${Math.random()}`.slice(2)) {
  return {
    slug,
    contactName,
    contactEmail: "asha.rao@example.com",
    message: "Could I book a visit next week?",
    idempotencyKey: `invisible-${key}`,
    consent: { userAgreedToBeContacted: true, statementShownToUser: statement },
  };
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

async function storedLeads(): Promise<number> {
  const [row] = await server.database.db.select({ n: count() }).from(leads);
  return row!.n;
}

async function storedCorrections(): Promise<number> {
  const [row] = await server.database.db.select({ n: count() }).from(corrections);
  return row!.n;
}

describe("invisible characters are no text, on every door a lead comes through", () => {
  it.each(Object.entries(INVISIBLE_CLASSES))("refuses a consent statement of twelve %s", async (_name, character) => {
    const before = await storedLeads();
    const statement = character.repeat(12);
    const rest = await post("/api/v2/leads", lead(statement));
    expect(rest.status, rest.text).toBe(400);
    expect(rest.text).toMatch(/visible characters/);
    const trpc = await post("/trpc/leads.submit", { json: lead(statement) });
    expect(trpc.status, trpc.text).toBe(400);
    const viaMcp = (await mcp.callTool({ name: "submit_lead", arguments: lead(statement) })) as { isError?: boolean };
    expect(viaMcp.isError).toBe(true);
    expect(await storedLeads()).toBe(before);
  });

  it("refuses a contact name of zero-width spaces, and still takes a real lead", async () => {
    const statement = "May this business contact you about your request?";
    expect((await post("/api/v2/leads", lead(statement, "\u200B".repeat(12)))).status).toBe(400);
    expect((await post("/trpc/leads.submit", { json: lead(statement, "\u3164".repeat(12)) })).status).toBe(400);
    const accepted = await post("/api/v2/leads", lead(statement, "José Nuñez"));
    expect(accepted.status, accepted.text).toBe(200);
    expect(JSON.parse(accepted.text)).toMatchObject({ status: "new", businessSlug: slug });
  });

  it.each([
    ["contact name", { contactName: NOTHING_VISIBLE }],
    ["message", { message: NOTHING_VISIBLE }],
  ])("refuses a %s of nothing visible on every door", async (field, change) => {
    const before = await storedLeads();
    const body = { ...lead("May this business contact you about your request?"), ...change };
    const rest = await post("/api/v2/leads", body);
    expect(rest.status, rest.text).toBe(400);
    expect(rest.text).toMatch(/visible characters/);
    const trpc = await post("/trpc/leads.submit", { json: body });
    expect(trpc.status, trpc.text).toBe(400);
    const viaMcp = (await mcp.callTool({ name: "submit_lead", arguments: body })) as { isError?: boolean };
    expect(viaMcp.isError, field).toBe(true);
    expect(await storedLeads()).toBe(before);
  });
});

describe("correction evidence of nothing visible is no evidence, on every door", () => {
  it.each([
    ["blank Braille", "\u2800".repeat(12)],
    ["blank and placeholder code points", NOTHING_VISIBLE],
  ])("refuses evidence of %s", async (_name, evidence) => {
    const before = await storedCorrections();
    const body = { slug, property: "website", value: "https://clinic.example/", evidence };
    const rest = await post("/api/v2/corrections", body);
    expect(rest.status, rest.text).toBe(400);
    expect(rest.text).toMatch(/evidence/);
    const trpc = await post("/trpc/corrections.submit", { json: body });
    expect(trpc.status, trpc.text).toBe(400);
    const viaMcp = (await mcp.callTool({ name: "suggest_correction", arguments: body })) as { isError?: boolean };
    expect(viaMcp.isError).toBe(true);
    expect(await storedCorrections()).toBe(before);
  });

  it("still takes evidence a person can read", async () => {
    const body = { slug, property: "website", value: "https://clinic.example/readable", evidence: "The sign on the door gives this address." };
    const rest = await post("/api/v2/corrections", body);
    expect(rest.status, rest.text).toBe(201);
  });
});
