import { TRPCError } from "@trpc/server";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, claims, corrections, outboxEvents } from "@directory/db";
import { createContext } from "../../context";
import { toPublicError } from "../../errors";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { CORRECTION_EVIDENCE_LIMIT } from "../../services/corrections/corrections";
import { TRUNCATION_NOTE } from "../../services/shared/owner-text";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

/** corrections.* and owner.corrections on the tRPC door, in process, through a real database. */

let database: TestDatabase;
let adminKey: string;
const headers: Record<string, string> = {};
const callerWith = (options: { key?: string; ip?: string } = {}) =>
  createCaller(
    createContext({
      db: database.db,
      publicBaseUrl: "http://directory.test",
      authorizationHeader: options.key ? `Bearer ${options.key}` : undefined,
      clientIp: options.ip ?? null,
      setHeader: (name, value) => (headers[name] = String(value)),
    }),
  );
const admin = () => callerWith({ key: adminKey });

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  adminKey = (await createApiKey(database.db, { kind: "admin" })).key;
});
afterAll(async () => {
  await database?.destroy();
});

let taken = 0;
async function activeBusiness() {
  const rows = await database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .where(eq(businesses.status, "active"))
    .orderBy(asc(businesses.slug));
  return rows[taken++]!;
}

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return toPublicError(error as TRPCError);
}

const rowsOf = (businessId: string) => database.db.select().from(corrections).where(eq(corrections.businessId, businessId));
const eventsOf = (businessId: string, type: string) =>
  database.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.businessId, businessId), eq(outboxEvents.eventType, type)));

describe("corrections.submit: bad input (tRPC)", () => {
  it("404 unknown slug, 400 unknown property, 400 invalid value naming it, 400 operatingStatus without closedOn", async () => {
    const business = await activeBusiness();
    const anonymous = callerWith({ ip: "198.51.100.1" });
    expect(await refusal(anonymous.corrections.submit({ slug: "no-such-business-zz", property: "phone", value: "+4912345678", evidence: "x" }))).toMatchObject({
      status: 404,
    });
    const unknown = await refusal(anonymous.corrections.submit({ slug: business.slug, property: "shoeSize", value: 42, evidence: "x" }));
    expect(unknown).toMatchObject({ status: 400, body: { error: expect.stringMatching(/Unknown property "shoeSize"/) } });
    const invalid = await refusal(anonymous.corrections.submit({ slug: business.slug, property: "phone", value: "call me", evidence: "x" }));
    expect(invalid).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^Invalid phone: a phone number in international form/) } });
    const closure = await refusal(
      anonymous.corrections.submit({ slug: business.slug, operatingStatus: { status: "permanently_closed" } as never, evidence: "x" }),
    );
    expect(closure.status).toBe(400);
    expect(closure.body.error).toMatch(/closedOn/);
    expect(await rowsOf(business.id)).toHaveLength(0);
  });

  it("cleans hidden characters out of the evidence and cuts it at the cap instead of refusing it", async () => {
    const business = await activeBusiness();
    const evidence = `Called\u200B them\u202E today. ${"long ".repeat(1_000)}`;
    const result = await callerWith({ ip: "198.51.100.2" }).corrections.submit({ slug: business.slug, property: "phone", value: "+41 44 123 45 67", evidence });
    const [row] = await rowsOf(business.id);
    expect(row!.id).toBe(result.correctionId);
    expect(row!.evidence.startsWith("Called them today.")).toBe(true);
    expect(row!.evidence.endsWith(TRUNCATION_NOTE)).toBe(true);
    expect(row!.evidence.length).toBeLessThanOrEqual(CORRECTION_EVIDENCE_LIMIT + TRUNCATION_NOTE.length);
  });

  it("a dry run validates and writes nothing", async () => {
    const business = await activeBusiness();
    const result = await callerWith({ ip: "198.51.100.3" }).corrections.submit({
      slug: business.slug,
      property: "website",
      value: "https://example.org",
      evidence: "their sign",
      dryRun: true,
    });
    expect(result).toMatchObject({ correctionId: null, dryRun: true, status: "pending", property: "website", value: "https://example.org" });
    expect(await rowsOf(business.id)).toHaveLength(0);
    expect(await eventsOf(business.id, "correction.created")).toHaveLength(0);
  });

  it("a flood from one address is refused with 429 and Retry-After after the hourly limit", async () => {
    const business = await activeBusiness();
    const flooder = callerWith({ ip: "203.0.113.77" });
    for (let sent = 0; sent < 10; sent++) {
      await flooder.corrections.submit({ slug: business.slug, property: "phone", value: `+4144123450${sent}`, evidence: "flood", dryRun: true });
    }
    const refused = await refusal(flooder.corrections.submit({ slug: business.slug, property: "phone", value: "+41441234511", evidence: "flood" }));
    expect(refused).toMatchObject({ status: 429, body: { error: expect.stringMatching(/hourly correction limit/) } });
    expect(Number(headers["Retry-After"])).toBeGreaterThan(0);
  });
});

describe("corrections.submit: per-key limit (tRPC)", () => {
  it("a key's hourly correction limit is its own, whatever address it calls from", async () => {
    const business = await activeBusiness();
    const key = (await createApiKey(database.db, { kind: "developer" })).key;
    const limited = (ip: string) =>
      createCaller(
        createContext({
          db: database.db,
          publicBaseUrl: "http://directory.test",
          authorizationHeader: `Bearer ${key}`,
          clientIp: ip,
          rateLimits: { correctionsPerKeyPerHour: 2 },
        }),
      );
    const body = { slug: business.slug, property: "phone", value: "+41 44 123 00 00", evidence: "x", dryRun: true };
    await limited("192.0.2.60").corrections.submit(body);
    await limited("192.0.2.61").corrections.submit(body);
    expect(await refusal(limited("192.0.2.62").corrections.submit(body))).toMatchObject({
      status: 429,
      body: { policy: "correction-key-hourly", error: expect.stringMatching(/API key's hourly correction limit/) },
    });
  });
});

describe("the correction loop (tRPC)", () => {
  it("two callers raise one proposal's weight; anyone reads its status without the submitter; an admin accepts it into a superseding claim", async () => {
    const business = await activeBusiness();
    const ownerKey = (await createApiKey(database.db, { kind: "business", businessSlug: business.slug })).key;
    const body = { slug: business.slug, property: "phone", value: "+41 44 555 00 11", evidence: "https://example.org/notice" };
    const first = await callerWith({ ip: "192.0.2.10" }).corrections.submit(body);
    const again = await callerWith({ ip: "192.0.2.10" }).corrections.submit(body);
    expect(again.correctionId).toBe(first.correctionId);
    expect(again.supporters).toBe(1);
    const developerKey = (await createApiKey(database.db, { kind: "developer" })).key;
    const second = await callerWith({ key: developerKey }).corrections.submit(body);
    expect(second.correctionId).not.toBe(first.correctionId);
    expect(second.supporters).toBe(2);
    expect(await eventsOf(business.id, "correction.created")).toHaveLength(2);

    // Another caller polls it: the status is public, its submitter never appears.
    const status = await callerWith({ ip: "192.0.2.99" }).corrections.status({ id: first.correctionId! });
    expect(status).toMatchObject({ status: "pending", supporters: 2, property: "phone", value: "+41 44 555 00 11" });
    expect(JSON.stringify(status)).not.toMatch(/192\.0\.2\.10|submitter|key:/);

    // The owner sees both, with the evidence, without submitters.
    const own = await callerWith({ key: ownerKey }).owner.corrections();
    expect(own.corrections.map((c) => c.correctionId).sort()).toEqual([first.correctionId, second.correctionId].sort());
    expect(own.corrections[0]!.evidence).toBe("https://example.org/notice");

    const queue = await admin().corrections.list({});
    expect(queue.corrections.find((c) => c.correctionId === first.correctionId)).toMatchObject({ supporters: 2 });
    const updates = (await eventsOf(business.id, "entity.updated")).length;
    const accepted = await admin().corrections.accept({ id: first.correctionId! });
    expect(accepted).toMatchObject({ status: "accepted", claimId: expect.any(String) });
    const [current] = await database.db
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, business.id), eq(claims.property, "phone"), isNull(claims.supersededAt)));
    expect(current).toMatchObject({
      id: accepted.claimId,
      source: `correction:${first.correctionId}`,
      verification: "admin_verified",
      value: "+41 44 555 00 11",
    });
    expect((await callerWith().corrections.status({ id: second.correctionId! })).status).toBe("accepted");
    expect(await eventsOf(business.id, "entity.updated")).toHaveLength(updates + 1);

    const history = await callerWith({ key: developerKey }).entities.getEntityProfile({ slug: business.slug, history: true });
    const phones = history.claims.filter((claim) => claim.property === "phone");
    expect(phones.find((claim) => claim.supersededBy === accepted.claimId)).toBeDefined();
    expect(await refusal(admin().corrections.accept({ id: first.correctionId! }))).toMatchObject({ status: 409 });
  });

  it("an accepted correction on a feed-visible business reaches partners as one change-feed upsert carrying the new value", async () => {
    const [visible] = await database.db
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "owner_verified"), isNull(businesses.subscriptionExpiresAt)))
      .orderBy(asc(businesses.slug))
      .limit(1);
    const partner = callerWith({ key: (await createApiKey(database.db, { kind: "partner" })).key });
    let page = await partner.feed.getPartnerFeedChanges({ after: 0, limit: 1000 });
    while (page.hasMore) page = await partner.feed.getPartnerFeedChanges({ after: page.nextAfter, limit: 1000 });
    const before = page.nextAfter;
    const submitted = await callerWith({ ip: "192.0.2.40" }).corrections.submit({
      slug: visible!.slug,
      property: "phone",
      value: "+41 44 321 00 99",
      evidence: "their shop window",
    });
    expect((await partner.feed.getPartnerFeedChanges({ after: before, limit: 1000 })).changes).toHaveLength(0);
    await admin().corrections.accept({ id: submitted.correctionId! });
    const { changes } = await partner.feed.getPartnerFeedChanges({ after: before, limit: 1000 });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ action: "upsert", id: visible!.id });
    expect(JSON.stringify(changes[0]!.location)).toContain("+41 44 321 00 99");
  });

  it("rejecting changes no fact; an unknown id is 404 on every read", async () => {
    const business = await activeBusiness();
    const submitted = await callerWith({ ip: "192.0.2.20" }).corrections.submit({
      slug: business.slug,
      property: "website",
      value: "https://wrong.example",
      evidence: "x",
    });
    const rejected = await admin().corrections.reject({ id: submitted.correctionId! });
    expect(rejected.status).toBe("rejected");
    const [website] = await database.db
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, business.id), eq(claims.property, "website"), isNull(claims.supersededAt)));
    expect(website!.source).not.toMatch(/^correction:/);
    expect(await refusal(callerWith().corrections.status({ id: "00000000-0000-4000-8000-000000000000" }))).toMatchObject({ status: 404 });
    expect(await refusal(callerWith().corrections.status({ id: "not-an-id" }))).toMatchObject({ status: 404 });
    expect(await refusal(callerWith({ ip: "192.0.2.21" }).corrections.list({}))).toMatchObject({ status: 401 });
  });

  it("keeps who submitted only as a keyed pseudonym while pending, and forgets it once decided", async () => {
    const business = await activeBusiness();
    const submitterOf = async (id: string) =>
      (await database.db.select({ submitter: corrections.submitter }).from(corrections).where(eq(corrections.id, id)))[0]!.submitter;
    const developerKey = await createApiKey(database.db, { kind: "developer" });
    const proposal = { slug: business.slug, property: "phone", value: "+41 44 555 77 88", evidence: "seen on the door" };
    const byAddress = await callerWith({ ip: "192.0.2.30" }).corrections.submit(proposal);
    const byKey = await callerWith({ key: developerKey.key }).corrections.submit(proposal);
    const rival = await callerWith({ ip: "192.0.2.30" }).corrections.submit({ ...proposal, value: "+41 44 555 77 99" });
    const pending = [await submitterOf(byAddress.correctionId!), await submitterOf(byKey.correctionId!), await submitterOf(rival.correctionId!)];
    for (const submitter of pending) expect(submitter).not.toMatch(/192\.0\.2|ip:|key:|anonymous/);
    expect(pending[1]).not.toContain(developerKey.apiKey.id);
    // One caller, one pseudonym: the address's two proposals share it.
    expect(pending[2]).toBe(pending[0]);

    await admin().corrections.accept({ id: byAddress.correctionId! });
    // The accepted proposal's rows and the rival it superseded no longer say who sent them.
    for (const id of [byAddress.correctionId!, byKey.correctionId!, rival.correctionId!]) expect(await submitterOf(id)).toBe(`decided:${id}`);
    const accepted = await admin().corrections.list({ status: "accepted" });
    expect(accepted.corrections.find((c) => c.correctionId === byAddress.correctionId)).toMatchObject({ supporters: 2 });
  });

  it("an accepted permanent closure takes the business out of every list while its profile answers 200", async () => {
    const business = await activeBusiness();
    const submitted = await callerWith({ ip: "192.0.2.30" }).corrections.submit({
      slug: business.slug,
      operatingStatus: { status: "permanently_closed", closedOn: "2026-10-01" },
      evidence: "Shop front empty, sign removed",
    });
    await admin().corrections.accept({ id: submitted.correctionId! });
    const [row] = await database.db.select().from(businesses).where(eq(businesses.id, business.id));
    expect(row).toMatchObject({ status: "inactive", inactiveReason: "closed" });
    const profile = await callerWith().entities.getEntityProfile({ slug: business.slug });
    expect(profile.claims.find((claim) => claim.property === "operatingStatus")?.value).toEqual({ status: "permanently_closed", closedOn: "2026-10-01" });

    // Reopening brings it back into the lists.
    const reopened = await callerWith({ ip: "192.0.2.31" }).corrections.submit({
      slug: business.slug,
      operatingStatus: { status: "open" },
      evidence: "open again",
    });
    await admin().corrections.accept({ id: reopened.correctionId! });
    const [after] = await database.db.select().from(businesses).where(eq(businesses.id, business.id));
    expect(after).toMatchObject({ status: "active", inactiveReason: null });
  });
});
