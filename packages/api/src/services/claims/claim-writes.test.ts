import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, businessSearch, claims, outboxEvents, rowsOf } from "@directory/db";
import { DomainError } from "../../errors";
import { anonymousCaller } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { createBusinesses } from "./business-creation";
import { writeClaims, type NewClaim } from "./claim-writes";
import { ownerClaim } from "./claim-fixtures";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
});

const owner = ownerClaim;
const registry = (property: NewClaim["property"], value: unknown): NewClaim => ({
  property,
  value,
  source: "registry-test",
  confidence: 0.7,
  verification: "registry",
});

async function someBusiness(offset: number) {
  const [row] = await database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .where(eq(businesses.status, "active"))
    .orderBy(businesses.id)
    .offset(offset)
    .limit(1);
  return row!;
}

async function eventsOf(businessId: string) {
  return database.db.select().from(outboxEvents).where(eq(outboxEvents.businessId, businessId));
}

async function currentClaim(businessId: string, property: string) {
  const [row] = await database.db
    .select()
    .from(claims)
    .where(and(eq(claims.businessId, businessId), eq(claims.property, property), isNull(claims.supersededAt)));
  return row;
}

describe("the claim write path", () => {
  it("supersedes the current claim, re-projects the listing and the search row, and writes one event per business", async () => {
    const business = await someBusiness(0);
    const before = await eventsOf(business.id);
    const old = await currentClaim(business.id, "phone");
    const write = () =>
      database.db.transaction((tx) =>
        writeClaims(tx, [{ business, claims: [owner("phone", "+41 79 123 45 67"), owner("services", ["Root canal", "Whitening"])] }]),
      );
    const result = await write();
    expect(result.get(business.id)?.changed).toEqual(["phone", "services"]);
    const [row] = await database.db.select().from(businesses).where(eq(businesses.id, business.id));
    expect(row!.phone).toBe("+41 79 123 45 67");
    expect(row!.services).toEqual(["Root canal", "Whitening"]);
    const [previous] = await database.db.select().from(claims).where(eq(claims.id, old!.id));
    const now = await currentClaim(business.id, "phone");
    expect(previous!.supersededBy).toBe(now!.id);
    expect(previous!.supersededAt).not.toBeNull();
    const [search] = rowsOf<{ found: boolean }>(
      await database.db.execute(sql`select document @@ to_tsquery('simple', 'whitening') as found from business_search where business_id = ${business.id}`),
    );
    expect(search!.found).toBe(true);
    expect((await eventsOf(business.id)).length).toBe(before.length + 1);

    // The same value from the same source again: nothing written, nothing emitted.
    const again = await write();
    expect(again.get(business.id)).toEqual({ recorded: [], changed: [] });
    expect((await eventsOf(business.id)).length).toBe(before.length + 1);
  });

  it("reads a value back as the JSON it was written: a digit-only postal code stays a string", async () => {
    const business = await someBusiness(5);
    await database.db.transaction((tx) => writeClaims(tx, [{ business, claims: [owner("postalCode", "9490"), owner("tagline", "true")] }]));
    const profile = await anonymousCaller(database.db).entities.getEntityProfile({ slug: business.slug });
    expect(profile.claims.find((claim) => claim.property === "postalCode")?.value).toBe("9490");
    expect(profile.claims.find((claim) => claim.property === "tagline")?.value).toBe("true");
    expect(profile.contact.postalCode).toBe("9490");
  });

  it("keeps an owner's fact current against a later registry value, which stays as history", async () => {
    const business = await someBusiness(1);
    await database.db.transaction((tx) => writeClaims(tx, [{ business, claims: [owner("website", "https://owner.example/")] }]));
    const result = await database.db.transaction((tx) => writeClaims(tx, [{ business, claims: [registry("website", "https://registry.example/")] }]));
    expect(result.get(business.id)).toEqual({ recorded: ["website"], changed: [] });
    const current = await currentClaim(business.id, "website");
    expect(current!.value).toBe("https://owner.example/");
    const history = await database.db
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, business.id), eq(claims.source, "registry-test")));
    expect(history).toHaveLength(1);
    expect(history[0]!.supersededBy).toBe(current!.id);
    // The registry repeating itself is no change.
    const repeat = await database.db.transaction((tx) => writeClaims(tx, [{ business, claims: [registry("website", "https://registry.example/")] }]));
    expect(repeat.get(business.id)?.recorded).toEqual([]);
  });

  it("refuses a bad value with its property named and writes nothing of the batch", async () => {
    const first = await someBusiness(2);
    const second = await someBusiness(3);
    const [before] = await database.db.select().from(businesses).where(eq(businesses.id, first.id));
    const attempt = database.db.transaction((tx) =>
      writeClaims(tx, [
        { business: first, claims: [owner("email", "front@clinic.example")] },
        { business: second, claims: [owner("phone", "call us maybe")] },
      ]),
    );
    await expect(attempt).rejects.toSatisfy((error) => error instanceof DomainError && error.code === "INVALID_INPUT" && /phone/.test(error.message));
    const [after] = await database.db.select().from(businesses).where(eq(businesses.id, first.id));
    expect(after!.email).toBe(before!.email);
    for (const [property, value] of [
      ["website", "javascript:alert(1)"],
      ["email", "not-an-email"],
      ["coordinates", { lat: 91, lng: 0 }],
      ["openingHours", [{ days: ["Funday"], opens: "09:00", closes: "17:00" }]],
      ["category", "no-such-category"],
      ["city", "atlantis-xx"],
    ] as const) {
      await expect(database.db.transaction((tx) => writeClaims(tx, [{ business: first, claims: [owner(property, value)] }]))).rejects.toSatisfy(
        (error) => error instanceof DomainError && error.code === "INVALID_INPUT" && error.message.includes(property),
      );
    }
  });

  it("moves a business to another city and category through claims, and the search row follows", async () => {
    const business = await someBusiness(4);
    const [other] = rowsOf<{ slug: string; id: number; country_code: string }>(
      await database.db.execute(sql`select slug, id, country_code from cities where id <> (select city_id from businesses where id = ${business.id}) limit 1`),
    );
    await database.db.transaction((tx) =>
      writeClaims(tx, [{ business, claims: [owner("city", other!.slug), owner("category", "bakery"), owner("coordinates", { lat: 1.5, lng: 2.5 })] }]),
    );
    const [row] = await database.db.select().from(businesses).where(eq(businesses.id, business.id));
    expect([row!.cityId, row!.country, row!.categorySlug, row!.lat, row!.lng]).toEqual([other!.id, other!.country_code, "bakery", 1.5, 2.5]);
    const [search] = await database.db.select().from(businessSearch).where(eq(businessSearch.businessId, business.id));
    expect(search!.cityId).toBe(other!.id);
  });

  it("creates businesses from their first claims, with cleaned text and a unique slug", async () => {
    const [city] = rowsOf<{ slug: string }>(await database.db.execute(sql`select slug from cities order by id limit 1`));
    const first = [owner("name", "Café\u200B Roma"), owner("category", "cafe"), owner("city", city!.slug), owner("phone", "+39 06 1234 5678")];
    const created = await database.db.transaction((tx) =>
      createBusinesses(tx, [
        { label: "first", claims: first },
        { label: "second", claims: first },
      ]),
    );
    expect(created[0]!.slug).toMatch(/^cafe-roma-/);
    expect(created[1]!.slug).toBe(`${created[0]!.slug}-2`);
    const [row] = await database.db.select().from(businesses).where(eq(businesses.id, created[0]!.id));
    expect([row!.name, row!.categorySlug, row!.ownership, row!.phone]).toEqual(["Café Roma", "cafe", "unclaimed", "+39 06 1234 5678"]);
    const events = await eventsOf(created[0]!.id);
    expect(events.map((event) => event.payload.change)).toEqual(["created"]);
    await expect(database.db.transaction((tx) => createBusinesses(tx, [{ label: "BUSINESS.json", claims: [owner("name", "No City")] }]))).rejects.toThrow(
      /category/,
    );
  });
});
