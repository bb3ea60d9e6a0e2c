import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRegistry, scanOsmExtract } from "@directory/api";
import { OSM_EXTRACTS, SMALL_TEST_WORLD } from "@directory/api/testing";
import { businesses, registryRecords } from "@directory/db";
import type { TEntityProfile } from "@directory/api/schemas";
import { getJson, type OpenApiDocument, startTestServer, type TestServer } from "./testing";

/** Imported OpenStreetMap data as each door shows it: its provenance and the ODbL line travel with it. */

let server: TestServer;
let slug: string;

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  const scan = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2013);
  await importRegistry(server.database.db, scan, { source: "openstreetmap" });
  const record = scan.records.find((candidate) => candidate.facts.phone && candidate.facts.openingHours)!;
  const [row] = await server.database.db
    .select({ slug: businesses.slug })
    .from(registryRecords)
    .innerJoin(businesses, eq(businesses.id, registryRecords.businessId))
    .where(and(eq(registryRecords.source, "openstreetmap"), eq(registryRecords.recordId, record.recordId)));
  slug = row!.slug;
}, 120_000);
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
