import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, leadConsents, leads, outboxEvents, rateLimitCounters } from "@directory/db";
import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { anonymousCaller, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

let database: TestDatabase;
let slugs: string[];
const anonymous = () => anonymousCaller(database.db);
/** An anonymous caller at a client address, with lead limits of its own (the per-address one low). */
const atAddress = (clientIp: string, rateLimits: { leadsPerAddressPerHour: number; leadsPerBusinessPerDay?: number }) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: TEST_BASE_URL, clientIp, rateLimits }));
const withKey = (key: string) => createCaller(createContext({ db: database.db, publicBaseUrl: TEST_BASE_URL, authorizationHeader: `Bearer ${key}` }));
const consent = { userAgreedToBeContacted: true as const, statementShownToUser: "I agree that this dentist may contact me about my enquiry." };

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  const rows = await database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(sql`status = 'active' and subscription_expires_at is null`)
    .limit(2);
  slugs = rows.map((r) => r.slug);
});
afterAll(async () => {
  await database?.destroy();
});

async function counts() {
  const [l] = await database.db.select({ n: count() }).from(leads);
  const [c] = await database.db.select({ n: count() }).from(leadConsents);
  const [e] = await database.db.select({ n: count() }).from(outboxEvents).where(eq(outboxEvents.eventType, "lead.created"));
  return { leads: l!.n, consents: c!.n, events: e!.n };
}

describe("leads", () => {
  it("refuses a lead without an explicit consent attestation and writes nothing", async () => {
    const before = await counts();
    const base = { slug: slugs[0]!, contactName: "Asha", contactEmail: "asha@example.com", message: "Need a check-up", idempotencyKey: "key-no-consent-1" };
    for (const bad of [
      base,
      { ...base, consent: { ...consent, userAgreedToBeContacted: false } },
      { ...base, consent: { ...consent, userAgreedToBeContacted: "true" } },
      { ...base, consent: { userAgreedToBeContacted: true } },
    ]) {
      await expect(anonymous().leads.submit(bad as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await counts()).toEqual(before);
  });

  it("stores the lead, its consent and a lead.created event together; a retry returns the same lead", async () => {
    const before = await counts();
    const input = {
      slug: slugs[0]!,
      contactName: "Asha",
      contactPhone: "+91 98200 00000",
      message: "Can I book a cleaning on Saturday?",
      idempotencyKey: "lead-retry-0001",
      consent,
    };
    const first = await anonymous().leads.submit(input);
    expect(first.leadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.status).toBe("new");
    const [retry, concurrent] = await Promise.all([anonymous().leads.submit(input), anonymous().leads.submit(input)]);
    expect(retry.leadId).toBe(first.leadId);
    expect(concurrent.leadId).toBe(first.leadId);
    // A replay answers as the first submission did, business included (it was null).
    expect(first.businessSlug).toBe(slugs[0]);
    expect(retry).toEqual(first);
    expect(concurrent).toEqual(first);
    expect(await counts()).toEqual({ leads: before.leads + 1, consents: before.consents + 1, events: before.events + 1 });
    const [stored] = await database.db.select().from(leadConsents).where(eq(leadConsents.leadId, first.leadId));
    expect(stored?.statement).toBe(consent.statementShownToUser);
    await expect(anonymous().leads.submit({ ...input, message: "something else" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("reports status, timestamps and the business it went to, never personal data", async () => {
    const lead = await anonymous().leads.submit({
      slug: slugs[0]!,
      contactName: "Ravi Secret",
      contactEmail: "ravi@example.com",
      message: "Quote please",
      idempotencyKey: "lead-status-0001",
      consent,
    });
    const status = await anonymous().leads.status({ leadId: lead.leadId });
    expect(Object.keys(status).sort()).toEqual(["business", "createdAt", "leadId", "status", "updatedAt"]);
    const [business] = await database.db.select({ slug: businesses.slug, name: businesses.name }).from(businesses).where(eq(businesses.slug, slugs[0]!));
    expect(status.business).toEqual(business);
    expect(JSON.stringify(status)).not.toMatch(/Ravi|ravi@example/);
    await expect(anonymous().leads.status({ leadId: "not-a-lead" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lets only the owning business move its lead, forward only", async () => {
    const lead = await anonymous().leads.submit({
      slug: slugs[0]!,
      contactName: "Mei",
      contactEmail: "mei@example.com",
      message: "Hello",
      idempotencyKey: "lead-transition-01",
      consent,
    });
    const { key: owner } = await createApiKey(database.db, { kind: "business", businessSlug: slugs[0]! });
    const { key: stranger } = await createApiKey(database.db, { kind: "business", businessSlug: slugs[1]! });
    const { key: developer } = await createApiKey(database.db, { kind: "developer" });
    await expect(withKey(stranger).leads.transition({ leadId: lead.leadId, status: "contacted" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(withKey(developer).leads.transition({ leadId: lead.leadId, status: "contacted" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(anonymous().leads.transition({ leadId: lead.leadId, status: "contacted" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(withKey(owner).leads.transition({ leadId: lead.leadId, status: "won" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await withKey(owner).leads.transition({ leadId: lead.leadId, status: "contacted" })).status).toBe("contacted");
    expect((await withKey(owner).leads.transition({ leadId: lead.leadId, status: "won" })).status).toBe("won");
    expect((await anonymous().leads.status({ leadId: lead.leadId })).status).toBe("won");
  });

  it("counts a lead against the allowances only when a new one is recorded: not a replay, not a refused draft", async () => {
    const caller = atAddress("203.0.113.42", { leadsPerAddressPerHour: 2 });
    const input = {
      slug: slugs[0]!,
      contactName: "Ines",
      contactEmail: "ines@example.com",
      message: "A quote, please",
      idempotencyKey: "allowance-0001",
      consent,
    };
    const first = await caller.leads.submit(input);
    // More replays than the address's hourly allowance: each answers the first lead.
    for (let i = 0; i < 3; i++) expect(await caller.leads.submit(input)).toEqual(first);
    // Refused drafts, more of them than the allowance: no contact, an unknown business, a bad phone, no consent.
    const refused = [
      { ...input, idempotencyKey: "allowance-0002", contactEmail: undefined },
      { ...input, idempotencyKey: "allowance-0003", slug: "no-such-business-anywhere" },
      { ...input, idempotencyKey: "allowance-0004", contactEmail: undefined, contactPhone: "12345" },
      { ...input, idempotencyKey: "allowance-0005", consent: { ...consent, userAgreedToBeContacted: false } },
    ];
    for (const draft of refused) {
      await expect(caller.leads.submit(draft as never)).rejects.toMatchObject({ code: expect.stringMatching(/BAD_REQUEST|NOT_FOUND/) });
    }
    // The allowance of 2 still holds the second real lead, and refuses the third, writing nothing.
    expect((await caller.leads.submit({ ...input, idempotencyKey: "allowance-0006" })).leadId).not.toBe(first.leadId);
    const before = await counts();
    await expect(caller.leads.submit({ ...input, idempotencyKey: "allowance-0007" })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(await counts()).toEqual(before);
  });

  it("counts a new lead's allowances in the transaction that records it: one refused leaves the others as they were", async () => {
    const limits = { leadsPerAddressPerHour: 5, leadsPerBusinessPerDay: 1 };
    const input = {
      slug: slugs[1]!,
      contactName: "Olu",
      contactEmail: "olu@example.com",
      message: "Are you open?",
      idempotencyKey: "allowance-tx-01",
      consent,
    };
    await atAddress("198.51.100.7", limits).leads.submit(input);
    const second = atAddress("198.51.100.8", limits).leads.submit({ ...input, idempotencyKey: "allowance-tx-02" });
    await expect(second).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // The business's daily allowance refused it, so the second address's hourly count was given up with the lead.
    const counted = await database.db
      .select()
      .from(rateLimitCounters)
      .where(sql`${rateLimitCounters.bucket} like 'lead-address-hourly|ip:198.51.100.%'`);
    expect(counted.map((row) => row.hits)).toEqual([1]);
  });
});
