import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, claims, slugHistory } from "@directory/db";
import type { TEntityProfile, TGetAgentProfileOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";

let server: TestServer;
let developerKey: string;
beforeAll(async () => {
  server = await startTestServer();
  developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;
/** The profile, with the parts of its schema.org JSON-LD (a record of unknown values in the schema) these tests read. */
type Profile = TEntityProfile & { structuredData: { "@context": string; "@type": string; address: { "@type": string } } };

const activeCondition = and(eq(businesses.status, "active"), sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`);

async function businessWithHistory() {
  const [row] = await db()
    .select({ id: businesses.id, slug: businesses.slug })
    .from(claims)
    .innerJoin(businesses, eq(businesses.id, claims.businessId))
    .where(and(isNotNull(claims.supersededAt), activeCondition))
    .limit(1);
  if (!row) throw new Error("the demo world has no active business with claim history");
  return row;
}

describe("GET /api/v2/entity-profile", () => {
  it("groups identity, contact, aiSignals, services, structuredData and current claims", async () => {
    const target = await businessWithHistory();
    const { status, body } = await getJson<Profile>(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["identity", "contact", "aiSignals", "services", "structuredData", "claims"]));
    expect(body.identity.id).toBe(target.id);
    expect(body.structuredData["@context"]).toBe("https://schema.org");
    expect(body.structuredData.address["@type"]).toBe("PostalAddress");
    expect(body.history).toBe(false);
    for (const claim of body.claims) {
      expect(claim).toMatchObject({
        property: expect.any(String),
        source: expect.any(String),
        confidence: expect.any(Number),
        observedAt: expect.any(String),
        supersededAt: null,
      });
      expect(["self_reported", "admin_verified", "registry"]).toContain(claim.verification);
    }
    const current = await db()
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, target.id), isNull(claims.supersededAt)));
    expect(body.claims).toHaveLength(current.length);
    const phone = body.claims.find((c) => c.property === "phone");
    expect(phone?.value).toBe(body.contact.phone);
    expect(JSON.stringify(body)).not.toMatch(/geoScore|visibilityScore/);
  });

  it("uses the category's schema.org LocalBusiness subtype", async () => {
    const [dentist] = await db()
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.categorySlug, "dentist"), activeCondition))
      .limit(1);
    const { body } = await getJson<Profile>(server.url, `/api/v2/entity-profile?slug=${dentist?.slug}`);
    expect(body.structuredData["@type"]).toBe("Dentist");
  });

  it("adds superseded claims in history mode with a key, and refuses history without one", async () => {
    const target = await businessWithHistory();
    const anonymous = await getJson<ErrorBody>(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=true`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHORIZED");
    expect(anonymous.body.error).toMatch(/key/i);

    const keyed = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=true`, {
      authorization: `Bearer ${developerKey}`,
    });
    expect(keyed.status).toBe(200);
    expect(keyed.body.history).toBe(true);
    const superseded = keyed.body.claims.filter((c) => c.supersededAt !== null);
    expect(superseded.length).toBeGreaterThan(0);
    const ids = new Set(keyed.body.claims.map((c) => c.id));
    for (const claim of superseded) expect(ids.has(claim.supersededBy!)).toBe(true);
  });

  it("treats history=false as false (no key needed)", async () => {
    const target = await businessWithHistory();
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=false`);
    expect(status).toBe(200);
    expect(body.history).toBe(false);
  });

  it("refuses a malformed or unknown key rather than serving anonymously", async () => {
    const target = await businessWithHistory();
    const typo = `${developerKey.slice(0, -1)}${developerKey.endsWith("a") ? "b" : "a"}`;
    const malformed = await getJson<ErrorBody>(server.url, `/api/v2/entity-profile?slug=${target.slug}`, { authorization: `Bearer ${typo}` });
    expect(malformed.status).toBe(401);
    expect(malformed.body.code).toBe("INVALID_API_KEY");
  });

  it("is 404 for an unknown slug and 410 for a decommissioned business", async () => {
    const missing = await getJson<ErrorBody>(server.url, "/api/v2/entity-profile?slug=no-such-business-anywhere");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");

    const [inactive] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "inactive")).limit(1);
    const gone = await getJson<ErrorBody>(server.url, `/api/v2/entity-profile?slug=${inactive?.slug}`);
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe("ENTITY_DECOMMISSIONED");

    const [expired] = await db()
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), lt(businesses.subscriptionExpiresAt, new Date())))
      .limit(1);
    const lapsed = await getJson(server.url, `/api/v2/entity-profile?slug=${expired?.slug}`);
    expect(lapsed.status).toBe(410);
  });

  it("resolves a retired slug to the business", async () => {
    const [retired] = await db()
      .select({ old: slugHistory.slug, id: businesses.id })
      .from(slugHistory)
      .innerJoin(businesses, eq(businesses.id, slugHistory.businessId))
      .where(activeCondition)
      .limit(1);
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${retired?.old}`);
    expect(status).toBe(200);
    expect(body.identity.id).toBe(retired?.id);
    expect(body.identity.slug).not.toBe(retired?.old);
  });
});

describe("GET /entity/{id}?format=json", () => {
  it("serves the record by immutable id and survives a slug change", async () => {
    const target = await businessWithHistory();
    await db()
      .update(businesses)
      .set({ slug: `${target.slug}-renamed` })
      .where(eq(businesses.id, target.id));
    await db().insert(slugHistory).values({ slug: target.slug, businessId: target.id });
    const { status, body } = await getJson<TEntityProfile>(server.url, `/entity/${target.id}?format=json`);
    expect(status).toBe(200);
    expect(body.identity).toMatchObject({ id: target.id, slug: `${target.slug}-renamed` });
    const viaOldSlug = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(viaOldSlug.body.identity.id).toBe(target.id);
  });

  it("is 404 for an unknown or malformed id, and 400 for another format", async () => {
    expect((await getJson(server.url, "/entity/00000000-0000-4000-8000-000000000000?format=json")).status).toBe(404);
    expect((await getJson(server.url, "/entity/not-a-uuid?format=json")).status).toBe(404);
    const target = await businessWithHistory();
    expect((await getJson(server.url, `/entity/${target.id}?format=xml`)).status).toBe(400);
  });
});

describe("GET /business/{slug}/agent.json", () => {
  it("serves ABO/1.0 with five action types whose hrefs work, and intents from the profile", async () => {
    const target = await businessWithHistory();
    const { status, body } = await getJson<TGetAgentProfileOutput>(server.url, `/business/${target.slug}/agent.json`);
    expect(status).toBe(200);
    expect(body.schema).toBe("ABO/1.0");
    expect(body.entity).toMatchObject({ name: expect.any(String), category: expect.any(String), city: expect.any(String), verified: expect.any(Boolean) });
    expect(body.entity.trustScore).toBeGreaterThan(0);
    expect(body.entity.trustScore).toBeLessThanOrEqual(100);
    expect(body.contact).toMatchObject({ phone: expect.any(String), website: expect.any(String), address: expect.any(String) });
    expect(new Set(body.actions.map((a) => a.type))).toEqual(new Set(["contact", "navigate", "inquire", "schedule", "verify"]));
    for (const action of body.actions) {
      expect(action.href.startsWith("http://directory.test/")).toBe(true);
      const local = action.href.replace("http://directory.test", server.url).replace(/#.*$/, "");
      if (action.type === "inquire") {
        // The lead-submit operation: a POST, whose empty body is refused by name, not a missing route.
        const response = await fetch(local, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        expect(response.status, action.href).toBe(400);
        continue;
      }
      const response = await fetch(local);
      expect(response.status, action.href).toBe(200);
    }
    const hoursIntent = body.intents.find((i) => /open/.test(i.query));
    expect(hoursIntent?.answer).toMatch(/\d\d:\d\d-\d\d:\d\d/);
    const servicesIntent = body.intents.find((i) => /services/.test(i.query));
    const profile = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(servicesIntent?.answer).toContain(profile.body.services[0]);
    for (const intent of body.intents) {
      expect(intent.confidence).toBeGreaterThan(0);
      expect(intent.confidence).toBeLessThanOrEqual(1);
    }
    expect(body.agentInstructions.length).toBeGreaterThan(50);
  });

  it("is 410 for a decommissioned business", async () => {
    const [inactive] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.status, "inactive")).limit(1);
    expect((await getJson(server.url, `/business/${inactive?.slug}/agent.json`)).status).toBe(410);
  });
});
