import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, leadConsents, leads, outboxEvents } from "@directory/db";
import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { anonymousCaller, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

let database: TestDatabase;
let slugs: string[];
const anonymous = () => anonymousCaller(database.db);
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
});
