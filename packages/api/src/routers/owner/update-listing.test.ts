import { TRPCError } from "@trpc/server";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, claims, outboxEvents } from "@directory/db";
import { createContext } from "../../context";
import { toPublicError } from "../../errors";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { writeClaims } from "../../services/claims/claim-writes";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

/** owner.updateListing on the tRPC door, in process: the key decides the business, edits are self-reported claims. */

let database: TestDatabase;
const callerWith = (key?: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: key ? `Bearer ${key}` : undefined }));

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
});

let taken = 0;
/** A fresh active business and a key bound to it, one per test. */
async function ownedBusiness(ownership: "unclaimed" | "owner_verified" = "unclaimed") {
  const rows = await database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, ownership), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug));
  const business = rows[taken++]!;
  const { key, apiKey } = await createApiKey(database.db, { kind: "business", businessSlug: business.slug });
  return { ...business, key, keyId: apiKey.id };
}

async function claimsOf(businessId: string, property: string) {
  return database.db
    .select()
    .from(claims)
    .where(and(eq(claims.businessId, businessId), eq(claims.property, property)))
    .orderBy(asc(claims.recordedAt));
}

async function stateOf(businessId: string) {
  const [row] = await database.db.select().from(businesses).where(eq(businesses.id, businessId));
  const events = await database.db.select().from(outboxEvents).where(eq(outboxEvents.businessId, businessId));
  const all = await database.db.select().from(claims).where(eq(claims.businessId, businessId));
  return { row, events: events.length, claims: all.length };
}

async function refusal(call: Promise<unknown>): Promise<TRPCError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe("owner.updateListing (tRPC)", () => {
  it("records self-reported claims for the key's own business, changes the listing and answers the current claims", async () => {
    const own = await ownedBusiness();
    const result = await callerWith(own.key).owner.updateListing({ phone: "+91 22 5555 0101", tagline: "Open late", services: ["Cleaning", "Whitening"] });
    expect(result.business).toMatchObject({ id: own.id, slug: own.slug, ownership: "unclaimed" });
    expect(result.changed.sort()).toEqual(["phone", "services", "tagline"]);
    const phone = result.claims.find((claim) => claim.property === "phone");
    expect(phone).toMatchObject({
      value: "+91 22 5555 0101",
      verification: "self_reported",
      source: `owner:key-${own.keyId}`,
      confidence: 0.8,
      supersededAt: null,
    });
    expect(result.claims.find((claim) => claim.property === "tagline")?.value).toBe("Open late");
    const { row } = await stateOf(own.id);
    expect(row).toMatchObject({ phone: "+91 22 5555 0101", tagline: "Open late", services: ["Cleaning", "Whitening"], ownership: "unclaimed" });
    const profile = await callerWith().entities.getEntityProfile({ slug: own.slug });
    expect(profile.contact.phone).toBe("+91 22 5555 0101");
    expect(profile.claims.filter((claim) => claim.property === "phone")).toEqual([phone]);
    // The registry claim it replaced is history now.
    const history = await claimsOf(own.id, "phone");
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(history.filter((claim) => claim.supersededAt === null)).toHaveLength(1);
  });

  it("writes nothing and no event for a value the same key already stated", async () => {
    const own = await ownedBusiness();
    await callerWith(own.key).owner.updateListing({ website: "https://example.com/a" });
    const before = await stateOf(own.id);
    const again = await callerWith(own.key).owner.updateListing({ website: "https://example.com/a" });
    expect(again).toMatchObject({ changed: [], recorded: [] });
    const after = await stateOf(own.id);
    expect([after.events, after.claims]).toEqual([before.events, before.claims]);
  });

  it("refuses a body naming a business (another's or its own) with 403, writing nothing", async () => {
    const own = await ownedBusiness();
    const other = await ownedBusiness();
    const before = [await stateOf(own.id), await stateOf(other.id)];
    for (const body of [
      { slug: other.slug, phone: "+91 22 5555 0199" },
      { id: other.id, phone: "+91 22 5555 0199" },
      { slug: own.slug, phone: "+91 22 5555 0199" },
    ]) {
      const error = await refusal(callerWith(own.key).owner.updateListing(body));
      expect(error.code).toBe("FORBIDDEN");
      expect(error.message).toMatch(/names a business.*bound to/);
    }
    expect([await stateOf(own.id), await stateOf(other.id)]).toEqual(before);
  });

  it("admits business keys only: none 401, developer, partner and admin keys 403", async () => {
    const own = await ownedBusiness();
    const before = await stateOf(own.id);
    expect((await refusal(callerWith().owner.updateListing({ phone: "+91 22 5555 0102" }))).code).toBe("UNAUTHORIZED");
    for (const kind of ["developer", "partner", "admin"] as const) {
      const { key } = await createApiKey(database.db, { kind });
      const error = await refusal(callerWith(key).owner.updateListing({ phone: "+91 22 5555 0102" }));
      expect(error.code, kind).toBe("FORBIDDEN");
      expect(error.message).toMatch(/business-scoped API key/);
    }
    expect(await stateOf(own.id)).toEqual(before);
  });

  it("refuses an unknown property, an empty body and invalid values with 400 naming the property", async () => {
    const own = await ownedBusiness();
    const before = await stateOf(own.id);
    const cases: [unknown, RegExp][] = [
      [{ name: "New name" }, /name/],
      [{ rating: 5 }, /rating/],
      [{}, /at least one of phone/],
      [{ phone: "555-0101" }, /phone.*international form/],
      [{ website: "javascript:alert(1)" }, /website.*http/],
      [{ email: "not-an-email" }, /email/],
      [{ openingHours: [{ days: ["Funday"], opens: "09:00", closes: "18:00" }] }, /openingHours/],
    ];
    for (const [body, message] of cases) {
      const error = await refusal(callerWith(own.key).owner.updateListing(body as never));
      expect(error.code, JSON.stringify(body)).toBe("BAD_REQUEST");
      // The words every door shows (REST body, tRPC message): the formatter's public error.
      expect(toPublicError(error).body.error, JSON.stringify(body)).toMatch(message);
    }
    expect(await stateOf(own.id)).toEqual(before);
  });

  it("keeps the owner's value current when a registry states another one later; the registry's is history", async () => {
    const own = await ownedBusiness();
    await callerWith(own.key).owner.updateListing({ phone: "+91 22 5555 0103" });
    const written = await database.db.transaction((tx) =>
      writeClaims(tx, [
        {
          business: own,
          claims: [{ property: "phone", value: "+91 22 5555 0999", source: "openstreetmap", confidence: 0.7, verification: "registry", recordId: "node/1" }],
        },
      ]),
    );
    expect(written.get(own.id)).toEqual({ recorded: ["phone"], changed: [] });
    const phones = await claimsOf(own.id, "phone");
    const current = phones.filter((claim) => claim.supersededAt === null);
    expect(current.map((claim) => [claim.value, claim.verification])).toEqual([["+91 22 5555 0103", "self_reported"]]);
    expect(phones.some((claim) => claim.value === "+91 22 5555 0999" && claim.supersededAt !== null)).toBe(true);
    expect((await stateOf(own.id)).row?.phone).toBe("+91 22 5555 0103");
  });

  it("records both an owner edit and a registry write running at once, and the owner's stays current", async () => {
    const own = await ownedBusiness();
    const registry = database.db.transaction((tx) =>
      writeClaims(tx, [
        { business: own, claims: [{ property: "email", value: "registry@example.com", source: "openstreetmap", confidence: 0.7, verification: "registry" }] },
      ]),
    );
    const owner = callerWith(own.key).owner.updateListing({ email: "owner@example.com" });
    await Promise.all([registry, owner]);
    const emails = await claimsOf(own.id, "email");
    expect(emails.map((claim) => claim.value)).toEqual(expect.arrayContaining(["registry@example.com", "owner@example.com"]));
    const current = emails.filter((claim) => claim.supersededAt === null);
    expect(current.map((claim) => claim.value)).toEqual(["owner@example.com"]);
    expect((await stateOf(own.id)).row?.email).toBe("owner@example.com");
  });

  it("stays self-reported on an owner-verified listing, and repeating an admin-verified value keeps it admin-verified", async () => {
    const own = await ownedBusiness("owner_verified");
    const { key: adminKey } = await createApiKey(database.db, { kind: "admin" });
    const edited = await callerWith(own.key).owner.updateListing({ usp: "Same-day appointments" });
    expect(edited.business.ownership).toBe("owner_verified");
    expect(edited.claims.find((claim) => claim.property === "usp")?.verification).toBe("self_reported");
    await callerWith(adminKey).admin.verifyClaim({ slug: own.slug, property: "usp" });
    const repeated = await callerWith(own.key).owner.updateListing({ usp: "Same-day appointments" });
    expect(repeated.changed).toEqual([]);
    expect(repeated.claims.find((claim) => claim.property === "usp")).toMatchObject({ verification: "admin_verified", source: "admin:verify" });
  });

  it("answers 410 for a listing out of service, writing nothing", async () => {
    const own = await ownedBusiness();
    await database.db.update(businesses).set({ status: "inactive" }).where(eq(businesses.id, own.id));
    const before = await stateOf(own.id);
    const error = await refusal(callerWith(own.key).owner.updateListing({ phone: "+91 22 5555 0104" }));
    expect(error.cause).toMatchObject({ code: "ENTITY_DECOMMISSIONED" });
    expect(await stateOf(own.id)).toEqual(before);
  });
});
