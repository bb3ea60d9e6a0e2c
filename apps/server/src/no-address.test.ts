import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, importRegistry, scanOsmExtract } from "@directory/api";
import { businesses } from "@directory/db";
import { listingOfRecord, OSM_EXTRACTS } from "@directory/api/testing";
import type { TEntityProfile, TGetAgentProfileOutput, TGetPartnerFeedOutput } from "@directory/api/schemas";
import { getJson, startTestServer, type TestServer } from "./testing";

/*
 * A business no source gives an address (an OpenStreetMap element without addr:* tags, in no
 * addressed building) has none on any door: null where the field may be null, left out of
 * sentences and of the JSON-LD, never an empty string (issue 41).
 */

interface Listing {
  slug: string;
  address: string | null;
}

let server: TestServer;
let slug: string;
let recordName: string;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  const scan = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2015);
  await importRegistry(server.database.db, scan, { source: "openstreetmap" });
  const record = scan.records.find((candidate) => !candidate.facts.address && !candidate.facts.postalCode && candidate.facts.name)!;
  recordName = record.facts.name;
  const listing = await listingOfRecord(server.database.db, record.recordId);
  expect(listing.address).toBeNull();
  slug = listing.slug;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe("a business without an address", () => {
  it("REST profile: contact.address is null and the JSON-LD has no streetAddress", async () => {
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
    expect(status).toBe(200);
    expect(body.contact.address).toBeNull();
    const address = (body.structuredData as { address: Record<string, unknown> }).address;
    expect(address).not.toHaveProperty("streetAddress");
    expect(address).toMatchObject({ "@type": "PostalAddress", addressLocality: body.identity.city, addressCountry: "LI" });
  });

  it("GraphQL: the contact's address is null", async () => {
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ entity(slug: "${slug}") { contact { address } } }` }),
    });
    const { data } = (await response.json()) as { data: { entity: { contact: { address: string | null } } } };
    expect(data.entity.contact).toEqual({ address: null });
  });

  it("agent.json says where it is without an empty street", async () => {
    const { body } = await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`);
    const where = body.intents.find((intent) => intent.query.startsWith("Where is"))!;
    expect(where.answer).toMatch(/^In [^,]+, [^,]+, LI; no street address is known\.$/);
    expect(where.confidence).toBeGreaterThan(0);
    expect(body.actions.find((action) => action.actionId === "navigate")!.description).toContain("no street address is known");
  });

  it("the page says no street address is known, and its listing line has no empty part", async () => {
    const html = await (await fetch(`${server.url}/business/${slug}`)).text();
    const location = html.slice(html.indexOf('<h2 id="location">'), html.indexOf('<h2 id="hours">'));
    expect(location).toContain("<p>No street address known</p>");
    const browse = /<a href="([^"]+)">All [^<]+ listings in/.exec(html)![1]!.replace(/&amp;/g, "&");
    const listingPage = await (await fetch(`${server.url}${browse}`)).text();
    const line = listingPage.slice(listingPage.indexOf(`href="/business/${slug}"`)).split("</li>")[0]!;
    expect(line).toContain(recordName.replace(/&/g, "&amp;"));
    expect(line).not.toMatch(/·\s+·/);
  });

  it("search results carry null, not an empty string", async () => {
    const { body: profile } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
    const query = new URLSearchParams({ category: profile.identity.categorySlug, city: profile.identity.city, limit: "50" });
    const { status, body } = await getJson<{ businesses: Listing[] }>(server.url, `/api/v2/businesses?${query.toString()}`);
    expect(status).toBe(200);
    expect(body.businesses.find((listing) => listing.slug === slug)).toMatchObject({ address: null });
    expect(body.businesses.filter((listing) => listing.address === "")).toEqual([]);
  });

  // Last: it makes the business owner-verified, which the feed needs.
  it("the partner feed and the export: a PostalAddress without streetAddress", async () => {
    const partner = { authorization: `Bearer ${(await createApiKey(server.database.db, { kind: "partner" })).key}` };
    const verified = await fetch(`${server.url}/api/v2/admin/businesses/verify-owner`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
      body: JSON.stringify({ slug }),
    });
    expect(verified.status).toBe(200);
    const [row] = await server.database.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, slug));
    const { body } = await getJson<TGetPartnerFeedOutput>(server.url, "/api/v2/partner-feed?limit=500", partner);
    const location = body.locations.find((candidate) => candidate.identifier === row!.id)!;
    expect(location.address).toMatchObject({ "@type": "PostalAddress", addressCountry: "LI" });
    expect(location.address).not.toHaveProperty("streetAddress");
    const exported = await (await fetch(`${server.url}/api/v2/partner-feed/export`, { headers: partner })).text();
    expect(exported).toContain(row!.id);
    expect(exported).not.toContain('"streetAddress":""');
  });
});
