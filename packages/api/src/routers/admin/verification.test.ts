import { TRPCError } from "@trpc/server";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, claims, outboxEvents } from "@directory/db";
import { createContext } from "../../context";
import { toPublicError } from "../../errors";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

/** admin.verifyClaim, admin.verifyOwner and admin.addBusiness on the tRPC door, in process. */

let database: TestDatabase;
let adminKey: string;
const callerWith = (key?: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: key ? `Bearer ${key}` : undefined }));
const admin = () => callerWith(adminKey);

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  adminKey = (await createApiKey(database.db, { kind: "admin" })).key;
});
afterAll(async () => {
  await database?.destroy();
});

let taken = 0;
async function unclaimedBusiness() {
  const rows = await database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "unclaimed")))
    .orderBy(asc(businesses.slug));
  return rows[taken++]!;
}

const eventsOf = (businessId: string) => database.db.select().from(outboxEvents).where(eq(outboxEvents.businessId, businessId));

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return toPublicError(error as TRPCError);
}

describe("admin.verifyClaim (tRPC)", () => {
  it("supersedes the current claim with an admin-verified one of the same value; history shows both", async () => {
    const business = await unclaimedBusiness();
    const events = (await eventsOf(business.id)).length;
    const result = await admin().admin.verifyClaim({ slug: business.slug, property: "phone" });
    expect(result.verified).toBe(true);
    expect(result.claim).toMatchObject({ property: "phone", source: "admin:verify", confidence: 1, verification: "admin_verified", supersededAt: null });
    expect(result.previous).toMatchObject({ property: "phone", verification: "registry", value: result.claim.value, supersededBy: result.claim.id });
    const history = await callerWith(adminKey).entities.getEntityProfile({ slug: business.slug, history: true });
    const phones = history.claims.filter((claim) => claim.property === "phone");
    expect(phones.map((claim) => claim.id)).toEqual(expect.arrayContaining([result.claim.id, result.previous!.id]));
    const current = await callerWith().entities.getEntityProfile({ slug: business.slug });
    expect(current.claims.filter((claim) => claim.property === "phone")).toEqual([result.claim]);
    expect(await eventsOf(business.id)).toHaveLength(events + 1);

    // Again: already admin-verified, nothing written.
    const again = await admin().admin.verifyClaim({ slug: business.slug, property: "phone" });
    expect(again).toMatchObject({ verified: false, previous: null, claim: result.claim });
    expect(await eventsOf(business.id)).toHaveLength(events + 1);
  });

  it("answers 404 for an unknown slug, 400 for an unknown property, 409 for a property with no current claim", async () => {
    const business = await unclaimedBusiness();
    expect(await refusal(admin().admin.verifyClaim({ slug: "no-such-business-zz", property: "phone" }))).toMatchObject({ status: 404 });
    const unknown = await refusal(admin().admin.verifyClaim({ slug: business.slug, property: "shoeSize" as never }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/property/);
    await database.db
      .update(claims)
      .set({ supersededAt: new Date() })
      .where(and(eq(claims.businessId, business.id), eq(claims.property, "usp"), isNull(claims.supersededAt)));
    const none = await refusal(admin().admin.verifyClaim({ slug: business.slug, property: "usp" }));
    expect(none).toMatchObject({ status: 409, body: { error: expect.stringMatching(/no current usp claim/) } });
  });

  it("verifies again a value an owner restated after an earlier verification of it", async () => {
    const business = await unclaimedBusiness();
    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: business.slug });
    await callerWith(key).owner.updateListing({ email: "first@example.com" });
    await admin().admin.verifyClaim({ slug: business.slug, property: "email" });
    await callerWith(key).owner.updateListing({ email: "second@example.com" });
    await callerWith(key).owner.updateListing({ email: "first@example.com" });
    const events = (await eventsOf(business.id)).length;
    const again = await admin().admin.verifyClaim({ slug: business.slug, property: "email" });
    expect(again).toMatchObject({
      verified: true,
      claim: { value: "first@example.com", verification: "admin_verified" },
      previous: { verification: "self_reported" },
    });
    expect(await eventsOf(business.id)).toHaveLength(events + 1);
  });

  it("admits admin keys only", async () => {
    const business = await unclaimedBusiness();
    expect((await refusal(callerWith().admin.verifyClaim({ slug: business.slug, property: "phone" }))).status).toBe(401);
    for (const kind of ["developer", "partner"] as const) {
      const { key } = await createApiKey(database.db, { kind });
      expect((await refusal(callerWith(key).admin.verifyClaim({ slug: business.slug, property: "phone" }))).status, kind).toBe(403);
    }
    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: business.slug });
    expect((await refusal(callerWith(key).admin.verifyClaim({ slug: business.slug, property: "phone" }))).status).toBe(403);
    expect((await refusal(callerWith(key).admin.verifyOwner({ slug: business.slug }))).status).toBe(403);
  });
});

describe("admin.verifyOwner (tRPC)", () => {
  it("turns the listing owner_verified with one entity.updated, and changes nothing the second time", async () => {
    const business = await unclaimedBusiness();
    const events = (await eventsOf(business.id)).length;
    const first = await admin().admin.verifyOwner({ slug: business.slug });
    expect(first).toMatchObject({ id: business.id, slug: business.slug, ownership: "owner_verified", changed: true });
    const after = await eventsOf(business.id);
    expect(after).toHaveLength(events + 1);
    expect(after.at(-1)!.payload).toMatchObject({ event: "entity.updated", change: "ownership" });
    expect((await callerWith().entities.getEntityProfile({ slug: business.slug })).identity).toMatchObject({ ownership: "owner_verified" });
    expect(await admin().admin.verifyOwner({ slug: business.slug })).toMatchObject({ changed: false });
    expect(await eventsOf(business.id)).toHaveLength(events + 1);
    expect((await refusal(admin().admin.verifyOwner({ slug: "no-such-business-zz" }))).status).toBe(404);
  });
});

describe("admin.addBusiness (tRPC)", () => {
  it("creates a business findable by category and city, with admin-verified claims", async () => {
    const created = await admin().admin.addBusiness({
      name: "Harbour Light Dental",
      category: "dentist",
      city: "mumbai-in",
      phone: "+91 22 5555 0300",
      website: "https://harbour-light.example",
    });
    expect(created).toMatchObject({ slug: "harbour-light-dental-mumbai", ownership: "unclaimed" });
    expect(created.claims.find((claim) => claim.property === "phone")).toMatchObject({ verification: "admin_verified", source: "admin:add" });
    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await callerWith().search.lookupBusinesses({ category: "dentist", city: "Mumbai", limit: 50, cursor });
      found.push(...page.businesses.map((listing) => listing.slug));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(found).toContain(created.slug);
    const profile = await callerWith().entities.getEntityProfile({ slug: created.slug });
    expect(profile.contact.phone).toBe("+91 22 5555 0300");
  });

  it("refuses a missing or unknown property, an invalid value and an unknown city or category with 400 naming it", async () => {
    const before = await database.db.$count(businesses);
    const base = { name: "Nowhere Dental", category: "dentist", city: "mumbai-in" };
    const cases: [unknown, RegExp][] = [
      [{ category: "dentist", city: "mumbai-in" }, /name/],
      [{ ...base, rating: 5 }, /rating/],
      [{ ...base, slug: "chosen-slug" }, /slug/],
      [{ ...base, phone: "12" }, /phone/],
      [{ ...base, city: "atlantis-zz" }, /city.*atlantis-zz/],
      [{ ...base, category: "wizards" }, /category.*wizards/],
    ];
    for (const [body, message] of cases) {
      const refused = await refusal(admin().admin.addBusiness(body as never));
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error, JSON.stringify(body)).toMatch(message);
    }
    expect(await database.db.$count(businesses)).toBe(before);
  });
});
