import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGazetteer } from "@directory/db/gazetteer";
import { businesses, claims, outboxEvents, registryRecords, rowsOf, webhookDeliveries, webhooks } from "@directory/db";
import { DomainError } from "../../errors";
import { anonymousCaller, keyedCaller, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { createApiKey } from "../access/api-keys";
import { invalidateReferenceData } from "../search/reference-data";
import { fanOutOutbox } from "../webhooks/dispatch";
import { importRegistry, type ImportSummary } from "./import-registry";
import { OSM_EXTRACTS } from "./osm/test-extracts";
import { scanOsmExtract } from "./osm/scan-osm";
import type { RegistryScan } from "./registry-record";

let database: TestDatabase;
let scan2013: RegistryScan;
let scan2015: RegistryScan;
const SOURCE = "openstreetmap";

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  const gazetteer = loadGazetteer();
  [scan2013, scan2015] = await Promise.all([
    scanOsmExtract(OSM_EXTRACTS.liechtenstein2013, { gazetteer }),
    scanOsmExtract(OSM_EXTRACTS.liechtenstein2015, { gazetteer }),
  ]);
  // A partner's webhook hears every entity.updated: what "one delivery per business" is counted on.
  const partner = await createApiKey(database.db, { kind: "partner", label: "import test" });
  await database.db
    .insert(webhooks)
    .values({ id: randomUUID(), apiKeyId: partner.apiKey.id, url: "https://partner.example/hook", events: ["entity.updated"], secretSealed: "unused" });
}, 120_000);
afterAll(async () => {
  await database?.destroy();
});

async function count(table: typeof claims | typeof outboxEvents) {
  const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from ${table}`));
  return row!.n;
}

async function deliveriesPerBusiness(): Promise<Map<string, number>> {
  while ((await fanOutOutbox(database.db, { publicBaseUrl: TEST_BASE_URL })) > 0);
  const rows = rowsOf<{ business_id: string; n: number }>(
    await database.db.execute(sql`
      select e.business_id, count(*)::int as n from ${webhookDeliveries} d join ${outboxEvents} e on e.id = d.outbox_event_id group by e.business_id`),
  );
  return new Map(rows.map((row) => [row.business_id, row.n]));
}

describe("importing real OpenStreetMap extracts (Liechtenstein 2013, then 2015)", () => {
  let first: ImportSummary;
  let deliveredBefore: Map<string, number>;

  it("adds every business of the 2013 extract, each with its claims and one delivery", async () => {
    first = await importRegistry(database.db, scan2013, { source: SOURCE });
    expect(first.added).toBe(scan2013.records.length);
    expect(first.added).toBeGreaterThan(100);
    expect([first.changed, first.removed, first.reactivated]).toEqual([0, 0, 0]);
    deliveredBefore = await deliveriesPerBusiness();
    const imported = await database.db.select({ businessId: registryRecords.businessId }).from(registryRecords);
    expect(imported.every((row) => deliveredBefore.get(row.businessId) === 1)).toBe(true);
  });

  it("changes nothing when the same extract comes again: no claim, no event", async () => {
    const [claimsBefore, eventsBefore] = [await count(claims), await count(outboxEvents)];
    const again = await importRegistry(database.db, scan2013, { source: SOURCE });
    expect([again.added, again.changed, again.removed, again.reactivated, again.unchanged]).toEqual([0, 0, 0, 0, scan2013.records.length]);
    expect([await count(claims), await count(outboxEvents)]).toEqual([claimsBefore, eventsBefore]);
  });

  it("serves imported restaurants, hotels and supermarkets by category and city, with OpenStreetMap provenance", async () => {
    invalidateReferenceData(database.db);
    const caller = anonymousCaller(database.db);
    // Asked as a person would ("supermarket"), in the capital the gazetteer added on first use.
    for (const term of ["restaurant", "hotel", "supermarket"]) {
      const found = await caller.search.searchCategory({ category: term, city: "Vaduz", limit: 10 });
      const imported = scan2013.records.filter((record) => record.facts.category === found.category?.slug && record.city.name === "Vaduz");
      expect(imported.length, term).toBeGreaterThan(0);
      expect(found.businesses.length, term).toBe(Math.min(10, imported.length));
    }
    const record = scan2013.records.find((candidate) => candidate.facts.phone)!;
    const [row] = await database.db
      .select()
      .from(registryRecords)
      .where(and(eq(registryRecords.source, SOURCE), eq(registryRecords.recordId, record.recordId)));
    const [business] = await database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, row!.businessId));
    const profile = await caller.entities.getEntityProfile({ slug: business!.slug });
    const phone = profile.claims.find((claim) => claim.property === "phone")!;
    expect(phone).toMatchObject({ source: SOURCE, verification: "registry", recordId: record.recordId, observedAt: record.observedAt.toISOString() });
    for (const property of ["name", "category", "city", "coordinates"]) expect(profile.claims.some((claim) => claim.property === property)).toBe(true);
    expect(profile.attributions.map((attribution) => attribution.licence)).toEqual(["ODbL-1.0"]);
  });

  it("applies the 2015 extract as a diff: added, changed with history, removed as 410 removed_from_source, one delivery each", async () => {
    const area = scan2015.area!;
    const inArea = (record: RegistryScan["records"][number]) => {
      const { lat, lng } = record.facts.coordinates;
      return lat >= area.minLat && lat <= area.maxLat && lng >= area.minLng && lng <= area.maxLng;
    };
    // The 2013 extract was renumbered by the tool that cut it: its records continue under 2015's
    // ids, matched by name and place (registry-matching.ts). A landmark keeps its business.
    const adler = async () => {
      const [row] = await database.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.name, "Gasthof Adler"));
      return row?.id;
    };
    const adlerBefore = await adler();
    const summary = await importRegistry(database.db, scan2015, { source: SOURCE });
    expect(await adler()).toBe(adlerBefore);
    expect(summary.added + summary.changed + summary.unchanged + summary.reactivated).toBe(scan2015.records.length);
    const continued = scan2015.records.length - summary.added;
    expect(summary.removed).toBe(scan2013.records.filter(inArea).length - continued);
    for (const count of [summary.added, summary.changed, summary.unchanged, summary.removed]) expect(count).toBeGreaterThan(0);

    const delivered = await deliveriesPerBusiness();
    const newDeliveries = [...delivered].map(([businessId, n]) => [businessId, n - (deliveredBefore.get(businessId) ?? 0)] as const).filter(([, n]) => n > 0);
    expect(newDeliveries.every(([, n]) => n === 1)).toBe(true);
    expect(newDeliveries.length).toBe(summary.added + summary.changed + summary.removed + summary.reactivated);

    // A changed business shows the superseded registry claim in history mode.
    const [superseded] = rowsOf<{ slug: string; property: string }>(
      await database.db.execute(sql`
        select b.slug, c.property from claims c join businesses b on b.id = c.business_id
        where c.source = ${SOURCE} and c.superseded_by is not null and b.status = 'active' limit 1`),
    );
    const { key } = await createApiKey(database.db, { kind: "developer" });
    const history = await keyedCaller(database.db, key).entities.getEntityProfile({ slug: superseded!.slug, history: true });
    const versions = history.claims.filter((claim) => claim.property === superseded!.property && claim.source === SOURCE);
    expect(versions.length).toBeGreaterThanOrEqual(2);
    expect(versions.filter((claim) => claim.supersededAt === null)).toHaveLength(1);
    const caller = anonymousCaller(database.db);
    const [removedRow] = await database.db
      .select()
      .from(registryRecords)
      .where(sql`${registryRecords.removedAt} is not null`)
      .limit(1);
    const [removedBusiness] = await database.db.select().from(businesses).where(eq(businesses.id, removedRow!.businessId));
    const refusal = await caller.entities.getEntityProfile({ slug: removedBusiness!.slug }).catch((error: unknown) => error);
    const cause = (refusal as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(DomainError);
    expect((cause as DomainError).httpStatus).toBe(410);
    expect((cause as DomainError).details.reason).toBe("removed_from_source");
  });

  it("reactivates a removed business when a later snapshot has it again", async () => {
    const summary = await importRegistry(database.db, scan2013, { source: SOURCE, dryRun: true });
    expect(summary.reactivated).toBeGreaterThan(0);
    expect(summary.dryRun).toBe(true);
    const [inactive] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from businesses where inactive_reason = 'removed_from_source'`),
    );
    // The dry run wrote nothing: the removed ones are still out of service.
    expect(inactive!.n).toBeGreaterThan(0);
  });

  it("removes nothing when another region is imported", async () => {
    const andorra = await scanOsmExtract(OSM_EXTRACTS.andorra2013);
    const summary = await importRegistry(database.db, andorra, { source: SOURCE, dryRun: true });
    expect(summary.removed).toBe(0);
    expect(summary.added).toBe(andorra.records.length);
  });
});
