import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, importRegistry, scanOsmExtract } from "@directory/api";
import { listingOfRecord, OSM_EXTRACTS, SMALL_TEST_WORLD } from "@directory/api/testing";
import { businesses } from "@directory/db";
import { createDirectoryClient } from "@directory/sdk";
import type { TEntityProfile, TGetAgentProfileOutput, TGetPartnerFeedChangesOutput, TGetPartnerFeedOutput } from "@directory/api/schemas";
import { getJson, type McpAnswer, type OpenApiDocument, startTestServer, type TestServer, type ToolResult } from "./testing";

/*
 * Imported OpenStreetMap data (Liechtenstein 2013, one import for the whole file) as each door
 * shows it: its provenance and the ODbL line travel with it, and opening hours the import could
 * not read into days and times are kept as the source wrote them (openingHoursText): every door
 * that presents hours gives that text, said to be the source's wording, never "Not known" nor an
 * empty answer (issue 41).
 */

/** Liechtenstein 2013's one opening_hours string in a form the import does not read ("08.30", "Do", "So"). */
const AS_WRITTEN = "Mo,Do,Fr 08.30-22.00;Sa 17:00-24:00;So 10:00-22:00";

let server: TestServer;
let slug: string;
let demoSlug: string;
/** The business whose hours are kept only as written (AS_WRITTEN). */
let hoursSlug: string;

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  const scan = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2013);
  await importRegistry(server.database.db, scan, { source: "openstreetmap" });
  const record = scan.records.find((candidate) => candidate.facts.phone && candidate.facts.openingHours)!;
  slug = (await listingOfRecord(server.database.db, record.recordId)).slug;
  const asWritten = scan.records.find((candidate) => candidate.facts.openingHoursText === AS_WRITTEN)!;
  hoursSlug = (await listingOfRecord(server.database.db, asWritten.recordId)).slug;
  const [demo] = await server.database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.isDemo, true), eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug))
    .limit(1);
  demoSlug = demo!.slug;
}, 180_000);
afterAll(async () => {
  await server?.close();
});

describe("an imported business on every door", () => {
  it("REST: the profile's claims name openstreetmap and the element, with the ODbL attribution", async () => {
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
    expect(status).toBe(200);
    const phone = body.claims.find((claim) => claim.property === "phone");
    expect(phone).toMatchObject({ source: "openstreetmap", verification: "registry", recordId: expect.stringMatching(/^(node|way|relation)\/\d+$/) });
    expect(body.attributions).toEqual([expect.objectContaining({ licence: "ODbL-1.0", url: "https://www.openstreetmap.org/copyright" })]);
    expect(body.structuredData.telephone).toBe(body.contact.phone);
  });

  it("GraphQL: the same claims and attribution", async () => {
    const query = `{ entity(slug: "${slug}") { claims { property source recordId } attributions { licence } } }`;
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const { data } = (await response.json()) as {
      data: { entity: { claims: { property: string; source: string; recordId: string }[]; attributions: { licence: string }[] } };
    };
    expect(data.entity.claims.find((claim) => claim.property === "name")).toMatchObject({ source: "openstreetmap" });
    expect(data.entity.attributions).toEqual([{ licence: "ODbL-1.0" }]);
  });

  it("OpenAPI: the document's description states the data licences", async () => {
    const { body } = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    expect(body.info.description).toMatch(/GeoNames \(CC BY 4\.0/);
    expect(body.info.description).toMatch(/OpenStreetMap contributors \(ODbL 1\.0/);
  });

  it("pages: the profile prints the attribution line under its facts, agent.json serves its hours", async () => {
    const page = await fetch(`${server.url}/business/${slug}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toMatch(
      /<p class="attribution">Data © OpenStreetMap contributors[^<]*\(<a href="https:\/\/www\.openstreetmap\.org\/copyright">ODbL-1\.0<\/a>\)<\/p>/,
    );
    expect(html).toContain("openstreetmap");
    const agent = await getJson(server.url, `/business/${slug}/agent.json`);
    expect(agent.status).toBe(200);
  });
});

/** A claim's record at its source, as the profile gives it: the OpenStreetMap element and its page. */
type SourcedClaim = { property: string; source: string; recordId: string | null; recordUrl: string | null };
const OSM_ELEMENT_PAGE = /^https:\/\/www\.openstreetmap\.org\/(node|way|relation)\/\d+$/;

describe("a registry claim's record id in its source, on every door (issue 42)", () => {
  /** The phone claim's record, as REST gives it: every other door must say the same. */
  const phoneRecord = async () => {
    const { body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
    const phone = body.claims.find((claim) => claim.property === "phone")!;
    expect(phone.recordUrl).toMatch(OSM_ELEMENT_PAGE);
    expect(phone.recordUrl).toBe(`https://www.openstreetmap.org/${phone.recordId}`);
    return { recordId: phone.recordId!, recordUrl: phone.recordUrl!, profile: body };
  };

  it("REST and tRPC: each claim names its record and the record's page; the JSON-LD names that page too", async () => {
    const { recordId, recordUrl, profile } = await phoneRecord();
    expect(profile.structuredData.sameAs).toContain(`https://www.openstreetmap.org/${profile.claims.find((claim) => claim.property === "name")!.recordId}`);
    const trpc = await createDirectoryClient({ baseUrl: server.url }).entities.getEntityProfile.query({ slug });
    expect(trpc.claims.find((claim) => claim.property === "phone")).toMatchObject({ source: "openstreetmap", recordId, recordUrl });
    expect(trpc.structuredData.sameAs).toEqual(profile.structuredData.sameAs);
    // A demo business's facts come from no registry record.
    const demo = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${demoSlug}`);
    expect(demo.body.claims.every((claim) => claim.recordId === null && claim.recordUrl === null)).toBe(true);
  });

  it("GraphQL: recordId and recordUrl beside the source", async () => {
    const { recordId, recordUrl } = await phoneRecord();
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ entity(slug: "${slug}") { claims { property source recordId recordUrl } } }` }),
    });
    const { data } = (await response.json()) as { data: { entity: { claims: SourcedClaim[] } } };
    expect(data.entity.claims.find((claim) => claim.property === "phone")).toEqual({ property: "phone", source: "openstreetmap", recordId, recordUrl });
  });

  it("the page: the facts table links each registry fact to its record, and the page's JSON-LD names it", async () => {
    const { recordId, recordUrl, profile } = await phoneRecord();
    const html = await (await fetch(`${server.url}/business/${slug}`)).text();
    const facts = html.slice(html.indexOf('<table class="claims"'), html.indexOf("</table>", html.indexOf('<table class="claims"')));
    expect(facts).toContain(`<td data-label="Source">OpenStreetMap, <a href="${recordUrl}">${recordId}</a></td>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as { sameAs: string[] };
    expect(jsonLd.sameAs).toEqual(profile.structuredData.sameAs);
  });

  it("MCP: the profile's structured content carries each claim's record page", async () => {
    const { recordUrl } = await phoneRecord();
    const result = (await mcpResult("get_business_profile", { slug })) as ToolResult<{ claims: SourcedClaim[] }>;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.claims.find((claim) => claim.property === "phone")).toMatchObject({ source: "openstreetmap", recordUrl });
  });
});

const OSM_LINE = {
  text: "Data © OpenStreetMap contributors, available under the Open Database Licence",
  licence: "ODbL-1.0",
  url: "https://www.openstreetmap.org/copyright",
};

async function mcpResult(tool: string, args: Record<string, unknown>): Promise<ToolResult> {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
  });
  return ((await response.json()) as McpAnswer<ToolResult>).result!;
}

const mcpText = async (tool: string, args: Record<string, unknown>) => (await mcpResult(tool, args)).content.map((part) => part.text).join("\n");

describe("the attribution on every door that carries imported facts, and only there", () => {
  it("agent.json (REST and GraphQL) names OpenStreetMap's licence for an imported business, none for a demo one", async () => {
    expect((await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`)).body.attributions).toEqual([OSM_LINE]);
    expect((await getJson<TGetAgentProfileOutput>(server.url, `/business/${demoSlug}/agent.json`)).body.attributions).toEqual([]);
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ a: agentProfile(slug: "${slug}") { attributions { licence url } } b: agentProfile(slug: "${demoSlug}") { attributions { licence } } }`,
      }),
    });
    const { data } = (await response.json()) as { data: { a: { attributions: unknown[] }; b: { attributions: unknown[] } } };
    expect(data.a.attributions).toEqual([{ licence: "ODbL-1.0", url: OSM_LINE.url }]);
    expect(data.b.attributions).toEqual([]);
  });

  it("the entity profile of a demo business claims no OpenStreetMap licence, on REST and its page", async () => {
    expect((await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${demoSlug}`)).body.attributions).toEqual([]);
    expect(await (await fetch(`${server.url}/business/${demoSlug}`)).text()).not.toContain('class="attribution"');
  });

  it("MCP text: the profile's text names the licence and its link; a demo profile's does not", async () => {
    const text = await mcpText("get_business_profile", { slug });
    expect(text).toContain("OpenStreetMap contributors");
    expect(text).toContain("https://www.openstreetmap.org/copyright");
    expect(await mcpText("get_business_profile", { slug: demoSlug })).not.toContain("openstreetmap.org/copyright");
  });

  it("the partner feed page, the change feed and the export carry it once an imported business is in the feed", async () => {
    const partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
    const partner = { authorization: `Bearer ${partnerKey}` };
    const before = await getJson<TGetPartnerFeedOutput>(server.url, "/api/v2/partner-feed?limit=500", partner);
    expect(before.status).toBe(200);
    // Only owner-verified businesses are in the feed: the demo world's page owes nothing.
    expect(before.body.attributions).toEqual([]);
    const start = (await getJson<TGetPartnerFeedChangesOutput>(server.url, "/api/v2/partner-feed/changes?after=0&limit=1000", partner)).body.nextAfter;

    const verified = await fetch(`${server.url}/api/v2/admin/businesses/verify-owner`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
      body: JSON.stringify({ slug }),
    });
    expect(verified.status).toBe(200);

    const after = await getJson<TGetPartnerFeedOutput>(
      server.url,
      `/api/v2/partner-feed?limit=500&updatedSince=${new Date(Date.now() - 60_000).toISOString()}`,
      partner,
    );
    const [imported] = await server.database.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, slug));
    expect(after.body.locations.map((location) => location.identifier)).toContain(imported!.id);
    // Each location names its registry record's page (issue 42): a partner can check the element there.
    expect(after.body.locations.find((location) => location.identifier === imported!.id)!.sameAs).toContainEqual(expect.stringMatching(OSM_ELEMENT_PAGE));
    expect(after.body.attributions).toEqual([OSM_LINE]);
    const changes = await getJson<TGetPartnerFeedChangesOutput>(server.url, `/api/v2/partner-feed/changes?after=${start}&limit=1000`, partner);
    expect(changes.body.changes.some((change) => change.action === "upsert")).toBe(true);
    expect(changes.body.attributions).toEqual([OSM_LINE]);

    const exported = await fetch(`${server.url}/api/v2/partner-feed/export`, { headers: partner });
    const lines = (await exported.text()).trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ count: lines.length - 1, attributions: [OSM_LINE] });
  });

  it("llms.txt states the data licences", async () => {
    const text = await (await fetch(`${server.url}/llms.txt`)).text();
    expect(text).toMatch(/## Data licences\n- Data: city names, regions and coordinates from GeoNames \(CC BY 4\.0/);
    expect(text).toContain("OpenStreetMap contributors (ODbL 1.0, https://www.openstreetmap.org/copyright)");
  });
});

describe("hours kept only as the source wrote them", () => {
  it("the profile page shows the text, marked as the source's wording, where it said Not known", async () => {
    const html = await (await fetch(`${server.url}/business/${hoursSlug}`)).text();
    const section = html.slice(html.indexOf('<h2 id="hours">'), html.indexOf('<h2 id="services">'));
    expect(section).toContain(`<p class="hours-as-written">As the source writes them: <q>${AS_WRITTEN}</q></p>`);
    expect(section).not.toContain("Not known");
  });

  it("the profile (REST and GraphQL) carries it beside the empty structured hours", async () => {
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${hoursSlug}`);
    expect(status).toBe(200);
    expect(body.contact).toMatchObject({ openingHours: [], openingHoursText: AS_WRITTEN });
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ entity(slug: "${hoursSlug}") { contact { openingHours { days } openingHoursText } } }` }),
    });
    const { data } = (await response.json()) as { data: { entity: { contact: unknown } } };
    expect(data.entity.contact).toEqual({ openingHours: [], openingHoursText: AS_WRITTEN });
  });

  it("agent.json answers when it is open with the text, as the source's words", async () => {
    const { body } = await getJson<TGetAgentProfileOutput>(server.url, `/business/${hoursSlug}/agent.json`);
    const open = body.intents.find((intent) => intent.query.startsWith("When is"));
    expect(open).toMatchObject({ answer: `As the source writes them: ${AS_WRITTEN} (local time).` });
    expect(open!.confidence).toBeGreaterThan(0);
  });

  it("the MCP profile text gives the text in its contact lines", async () => {
    const result = await mcpResult("get_business_profile", { slug: hoursSlug });
    expect(result.isError).toBeFalsy();
    const text = result.content.map((part) => part.text).join("\n");
    expect(text).toContain(`openingHoursText: ${AS_WRITTEN.replace(/\|/g, "/")}`);
  });
});
