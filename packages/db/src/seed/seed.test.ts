import { and, asc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database, type Db } from "../client";
import { migrate } from "../migrate";
import { PLAN_TIERS } from "../schema/enums";
import { businesses, buyerQuestions, categories, cities, claims, offers, slugHistory } from "../schema/index";
import { CATEGORIES } from "./categories";
import { DEMO_CLAIMED_PROPERTIES } from "./claims";
import { isDatabaseEmpty, seedDemoData } from "./index";
import { createTestDatabase } from "../testing";
import { SlugRegistry } from "./slugs";
import { DEMO_EPOCH_MS } from "./time";

const BUSINESSES = 600;
const DEMO_EPOCH = new Date(DEMO_EPOCH_MS);
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface SeededDatabase {
  database: Database;
  result: Awaited<ReturnType<typeof seedDemoData>>;
  emptyBeforeSeeding: boolean;
  emptyAfterSeeding: boolean;
}

async function seededDatabase(): Promise<SeededDatabase> {
  const database = await createDatabase({ memory: true });
  await migrate(database);
  const emptyBeforeSeeding = await isDatabaseEmpty(database.db);
  const result = await seedDemoData(database.db, { businesses: BUSINESSES, seed: 42, batchSize: 250 });
  return { database, result, emptyBeforeSeeding, emptyAfterSeeding: await isDatabaseEmpty(database.db) };
}

/** Every seeded table, in a stable order, for comparing two worlds. */
async function snapshot(db: Db) {
  return {
    categories: await db.select().from(categories).orderBy(asc(categories.slug)),
    cities: await db.select().from(cities).orderBy(asc(cities.id)),
    businesses: await db.select().from(businesses).orderBy(asc(businesses.id)),
    claims: await db.select().from(claims).orderBy(asc(claims.id)),
    offers: await db.select().from(offers).orderBy(asc(offers.id)),
    buyerQuestions: await db.select().from(buyerQuestions).orderBy(asc(buyerQuestions.id)),
    slugHistory: await db.select().from(slugHistory).orderBy(asc(slugHistory.slug)),
  };
}

describe("seedDemoData", () => {
  let first: Database;
  let second: Database;
  let seeded: SeededDatabase;
  let db: Db;

  beforeAll(async () => {
    const [a, b] = [await seededDatabase(), await seededDatabase()];
    first = a.database;
    second = b.database;
    seeded = a;
    db = first.db;
  }, 180_000);

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("is deterministic: the same seed writes identical rows, ids and timestamps included", async () => {
    const [a, b] = [await snapshot(first.db), await snapshot(second.db)];
    expect(a.businesses).toHaveLength(BUSINESSES);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.businesses.every((row) => UUID_V4.test(row.id))).toBe(true);
    expect(a.claims.every((row) => UUID_V4.test(row.id))).toBe(true);
  });

  // A PostgreSQL server takes the rows by COPY, PGlite as JSON (insert.ts): both must write the same world.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "writes the same rows on a PostgreSQL server (COPY) as on PGlite",
    async () => {
      const server = await createTestDatabase({ seed: { businesses: BUSINESSES, seed: 42, batchSize: 250 } });
      try {
        expect(server.driver).toBe("postgres");
        expect(JSON.stringify(await snapshot(server.db))).toBe(JSON.stringify(await snapshot(first.db)));
      } finally {
        await server.destroy();
      }
    },
    180_000,
  );

  it("reports what it wrote, and the database is no longer empty", async () => {
    const [claimCount] = await db.select({ n: sql<number>`count(*)::int` }).from(claims);
    const [cityCount] = await db.select({ n: sql<number>`count(*)::int` }).from(cities);
    expect(seeded.result).toEqual({ businesses: BUSINESSES, claims: claimCount?.n, cities: cityCount?.n, categories: CATEGORIES.length });
    expect([seeded.emptyBeforeSeeding, seeded.emptyAfterSeeding]).toEqual([true, false]);
  });

  it("has at least 45 categories with schema.org types and unambiguous synonyms", async () => {
    const rows = await db.select().from(categories);
    expect(rows.length).toBeGreaterThanOrEqual(45);
    const dentist = rows.find((row) => row.slug === "dentist");
    expect(dentist).toMatchObject({ name: "Dentist", singular: "dentist", schemaOrgType: "Dentist" });
    expect(dentist?.synonyms).toEqual(expect.arrayContaining(["dental clinic", "dental surgeon", "dentistry"]));
    expect(rows.find((row) => row.slug === "lawyer")?.synonyms).toEqual(expect.arrayContaining(["attorney", "advocate"]));
    const names = rows.flatMap((row) => [row.slug.replace(/-/g, " "), row.name.toLowerCase(), ...row.synonyms]);
    expect(new Set(rows.flatMap((row) => row.synonyms)).size).toBe(rows.flatMap((row) => row.synonyms).length);
    expect(names.every((name) => name === name.toLowerCase())).toBe(true);
  });

  it("has at least 120 real cities, with well-known aliases", async () => {
    const rows = await db.select().from(cities);
    expect(rows.length).toBeGreaterThanOrEqual(120);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get("Mumbai")).toMatchObject({ slug: "mumbai-in", countryCode: "IN", adminRegion: "Maharashtra" });
    expect(byName.get("Mumbai")?.aliases).toContain("bombay");
    expect(byName.get("Bengaluru")?.aliases).toContain("bangalore");
    expect(byName.get("New York City")?.aliases).toEqual(expect.arrayContaining(["new york", "nyc"]));
    expect(byName.get("São Paulo")?.aliases).toContain("sao paulo");
    for (const name of ["London", "Delhi"]) expect(byName.has(name)).toBe(true);
  });

  it("spreads plan tiers, ownership, inactive and expired listings", async () => {
    const rows = await db.select().from(businesses);
    expect(new Set(rows.map((row) => row.planTier))).toEqual(new Set(PLAN_TIERS));
    expect(new Set(rows.map((row) => row.ownership))).toEqual(new Set(["owner_verified", "unclaimed"]));
    expect(rows.some((row) => row.status === "inactive")).toBe(true);
    expect(rows.some((row) => row.subscriptionExpiresAt && row.subscriptionExpiresAt < DEMO_EPOCH)).toBe(true);
    expect(rows.filter((row) => row.planTier === "free").every((row) => row.subscriptionExpiresAt === null)).toBe(true);
    expect(rows.every((row) => row.isDemo && row.website === `https://${row.slug}.example`)).toBe(true);
    expect(rows.every((row) => row.updatedAt >= row.createdAt && row.createdAt >= DEMO_EPOCH)).toBe(true);
    expect(rows.every((row) => /^\+\d{8,15}$/.test(row.phone ?? ""))).toBe(true);
  });

  it("keeps every flat column equal to its current claim", async () => {
    const sample = await db
      .select({ business: businesses, citySlug: cities.slug })
      .from(businesses)
      .innerJoin(cities, eq(cities.id, businesses.cityId))
      .orderBy(asc(businesses.id))
      .limit(60);
    for (const { business, citySlug } of sample) {
      // The stored JSON as text: drizzle on PGlite parses a jsonb string a second time ("105803" reads as 105803).
      const current = await db
        .select({ property: claims.property, json: sql<string>`${claims.value}::text`, source: claims.source, observedAt: claims.observedAt })
        .from(claims)
        .where(and(eq(claims.businessId, business.id), isNull(claims.supersededAt)));
      const values = Object.fromEntries(current.map((claim) => [claim.property, JSON.parse(claim.json) as unknown]));
      expect(Object.keys(values).sort()).toEqual([...DEMO_CLAIMED_PROPERTIES].sort());
      // Category and city are claimed as slugs, coordinates as one { lat, lng } fact.
      const columns = { ...business, category: business.categorySlug, city: citySlug, coordinates: { lat: business.lat, lng: business.lng } };
      for (const property of DEMO_CLAIMED_PROPERTIES) expect([property, values[property]]).toEqual([property, columns[property]]);
      expect(
        current.every((claim) => claim.source.startsWith("demo:") && claim.observedAt >= business.createdAt && claim.observedAt <= business.updatedAt),
      ).toBe(true);
    }
  });

  it("gives claims the provenance of the business's ownership", async () => {
    const rows = await db
      .select({ ownership: businesses.ownership, verification: claims.verification, source: claims.source, confidence: claims.confidence })
      .from(claims)
      .innerJoin(businesses, eq(businesses.id, claims.businessId));
    const unclaimed = rows.filter((row) => row.ownership === "unclaimed");
    const owned = rows.filter((row) => row.ownership === "owner_verified");
    expect(unclaimed.every((row) => row.verification === "registry" && row.source === "demo:business-registry")).toBe(true);
    expect(new Set(owned.map((row) => row.verification))).toEqual(new Set(["self_reported", "admin_verified"]));
    expect(rows.every((row) => row.confidence >= 0.6 && row.confidence <= 1)).toBe(true);
  });

  it("keeps superseded history that points at the current claim", async () => {
    const old = await db.select().from(claims).where(isNotNull(claims.supersededAt));
    expect(old.length).toBeGreaterThan(BUSINESSES * 0.15);
    expect(new Set(old.map((claim) => claim.property))).toEqual(new Set(["phone", "website", "name"]));
    for (const claim of old.slice(0, 40)) {
      const [newer] = await db
        .select()
        .from(claims)
        .where(eq(claims.id, claim.supersededBy ?? ""));
      expect(newer).toMatchObject({ businessId: claim.businessId, property: claim.property, supersededAt: null });
      expect(newer?.observedAt).toEqual(claim.supersededAt);
      expect(claim.observedAt < (claim.supersededAt as Date)).toBe(true);
      expect(newer?.value).not.toEqual(claim.value);
    }
  });

  it("keeps retired slugs resolvable and distinct from current ones", async () => {
    const retired = await db.select().from(slugHistory);
    expect(retired.length).toBeGreaterThan(0);
    const current = new Set((await db.select({ slug: businesses.slug }).from(businesses)).map((row) => row.slug));
    expect(retired.every((row) => !current.has(row.slug))).toBe(true);
  });

  it("gives pro and premium listings offers, and has both kinds of buyer question", async () => {
    const rows = await db
      .select({ planTier: businesses.planTier, price: offers.price, currency: offers.currency })
      .from(offers)
      .innerJoin(businesses, eq(businesses.id, offers.businessId));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.planTier === "pro" || row.planTier === "premium")).toBe(true);
    const isoCurrencies = new Set(Intl.supportedValuesOf("currency"));
    expect(rows.every((row) => /^\d+\.\d{2}$/.test(row.price) && isoCurrencies.has(row.currency))).toBe(true);

    const templates = await db.select().from(buyerQuestions).where(isNotNull(buyerQuestions.categorySlug));
    expect(templates).toHaveLength(CATEGORIES.length * 3);
    const owned = await db
      .select({ ownership: businesses.ownership, answer: buyerQuestions.answer })
      .from(buyerQuestions)
      .innerJoin(businesses, eq(businesses.id, buyerQuestions.businessId));
    expect(owned.length).toBeGreaterThan(0);
    expect(owned.every((row) => row.ownership === "owner_verified" && row.answer)).toBe(true);
  });

  it("guarantees a full page of live dentists in the largest city", async () => {
    const [largest] = await db
      .select()
      .from(cities)
      .orderBy(sql`${cities.population} desc`)
      .limit(1);
    const live = await db
      .select({ id: businesses.id })
      .from(businesses)
      .where(
        and(
          eq(businesses.categorySlug, "dentist"),
          eq(businesses.cityId, largest?.id ?? 0),
          eq(businesses.status, "active"),
          or(isNull(businesses.subscriptionExpiresAt), gt(businesses.subscriptionExpiresAt, DEMO_EPOCH)),
        ),
      );
    expect(live.length).toBeGreaterThanOrEqual(10);
  });
});

describe("SlugRegistry", () => {
  it("numbers repeats, then appends the business number once past the exact limit", () => {
    const slugs = new SlugRegistry(3);
    expect([0, 1, 2].map((index) => slugs.claim("bright-smile-mumbai", index))).toEqual([
      "bright-smile-mumbai",
      "bright-smile-mumbai-2",
      "bright-smile-mumbai-3",
    ]);
    // Past the limit the suffix is the business number + 1, larger than any counter above.
    expect(slugs.claim("bright-smile-mumbai", 3)).toBe("bright-smile-mumbai-4");
    expect(slugs.claim("bright-smile-mumbai", 9)).toBe("bright-smile-mumbai-10");
  });
});
