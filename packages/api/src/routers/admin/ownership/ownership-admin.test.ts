import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, businesses, outboxEvents, ownershipClaims } from "@directory/db";
import { createContext } from "../../../context";
import { createCaller } from "../../../root";
import { createApiKey } from "../../../services/access/api-keys";
import { ensureAccount } from "../../../services/accounts/plans";
import { createAgency } from "../../../services/agencies/agencies";
import { activeOwnerIds } from "../../../services/claims/ownership";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../../testing";

/** ownershipAdmin.* (the operator's claims queue and a listing's owners) on the tRPC door, in process, through a real database. */

let database: TestDatabase;
let adminKey: string;
let developerKey: string;
const callerWith = (key: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: `Bearer ${key}`, clientIp: "203.0.113.21" }));
const admin = () => callerWith(adminKey).ownershipAdmin;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  adminKey = (await createApiKey(database.db, { kind: "admin" })).key;
  developerKey = (await createApiKey(database.db, { kind: "developer", label: "made by an operator" })).key;
});
afterAll(async () => {
  await database?.destroy();
});

let taken = 0;
/** A seeded listing no test has used yet, unclaimed. */
async function unclaimedBusiness() {
  const rows = await database.db
    .select({ id: businesses.id, slug: businesses.slug, name: businesses.name })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "unclaimed")))
    .orderBy(asc(businesses.slug));
  return rows[taken++]!;
}

/** A claim by review as the people's side leaves it: pending, with the claimant's evidence (another helper's table; set up directly). */
async function reviewClaim(businessId: string, email: string, options: { createdAt?: Date; method?: "review" | "email" } = {}) {
  const account = await ensureAccount(database.db, email);
  const [claim] = await database.db
    .insert(ownershipClaims)
    .values({
      businessId,
      accountId: account.id,
      method: options.method ?? "review",
      evidence: options.method === "email" ? null : "I run this shop: see the trade register entry 12345.",
      createdAt: options.createdAt ?? new Date(),
    })
    .returning();
  return { claim: claim!, account };
}

const ownershipOf = async (businessId: string) =>
  (await database.db.select({ ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, businessId)))[0]!.ownership;
const updatesOf = (businessId: string) =>
  database.db
    .select()
    .from(outboxEvents)
    .where(and(eq(outboxEvents.businessId, businessId), eq(outboxEvents.eventType, "entity.updated")));

describe("ownershipAdmin.claims", () => {
  it("lists the pending queue oldest first; approving makes the claimant an owner in one change; a second decision is a CONFLICT", async () => {
    const business = await unclaimedBusiness();
    const newer = await reviewClaim(business.id, "second-claimant@example.org");
    const older = await reviewClaim(business.id, "first-claimant@example.org", { createdAt: new Date("2026-01-02T03:04:05Z") });

    const pending = await admin().claims.list({});
    const ids = pending.map((claim) => claim.id);
    expect(ids.indexOf(older.claim.id)).toBeLessThan(ids.indexOf(newer.claim.id));
    expect(pending.find((claim) => claim.id === older.claim.id)).toEqual({
      id: older.claim.id,
      business: { slug: business.slug, name: business.name },
      email: "first-claimant@example.org",
      method: "review",
      status: "pending",
      evidence: "I run this shop: see the trade register entry 12345.",
      createdAt: "2026-01-02T03:04:05.000Z",
      decidedAt: null,
      decidedBy: null,
      agencySlug: null,
    });

    const eventsBefore = (await updatesOf(business.id)).length;
    const approved = await admin().claims.approve({ id: older.claim.id });
    expect(approved).toMatchObject({ id: older.claim.id, status: "approved", decidedBy: "operator", decidedAt: expect.any(String) });
    expect(await activeOwnerIds(database.db, business.id)).toEqual([older.account.id]);
    expect(await ownershipOf(business.id)).toBe("owner_verified");
    expect(await updatesOf(business.id)).toHaveLength(eventsBefore + 1);
    expect((await admin().claims.list({})).map((claim) => claim.id)).not.toContain(older.claim.id);
    expect((await admin().claims.list({ status: "approved" })).map((claim) => claim.id)).toContain(older.claim.id);

    await expect(admin().claims.approve({ id: older.claim.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(admin().claims.reject({ id: older.claim.id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await updatesOf(business.id)).toHaveLength(eventsBefore + 1);

    // A listing with an owner is claimed through review: a second claimant joins the first.
    await admin().claims.approve({ id: newer.claim.id });
    expect((await activeOwnerIds(database.db, business.id)).sort()).toEqual([older.account.id, newer.account.id].sort());
  });

  it("names the agency a claim is made for (null for a claim for oneself)", async () => {
    const business = await unclaimedBusiness();
    const { claim, account } = await reviewClaim(business.id, "agency-claimant@example.org");
    const agency = await createAgency(database.db, { accountId: account.id, name: "Queue Test Agency" });
    await database.db.update(ownershipClaims).set({ agencyId: agency.id }).where(eq(ownershipClaims.id, claim.id));
    const own = await reviewClaim(business.id, "own-claimant@example.org");

    const pending = await admin().claims.list({});
    expect(pending.find((row) => row.id === claim.id)?.agencySlug).toBe(agency.slug);
    expect(pending.find((row) => row.id === own.claim.id)?.agencySlug).toBeNull();
    expect(await admin().claims.reject({ id: claim.id })).toMatchObject({ id: claim.id, agencySlug: agency.slug });
  });

  it("rejects a claim: no owner, the listing stays unclaimed, nothing in the outbox", async () => {
    const business = await unclaimedBusiness();
    const { claim } = await reviewClaim(business.id, "rejected-claimant@example.org");
    const eventsBefore = (await updatesOf(business.id)).length;

    const rejected = await admin().claims.reject({ id: claim.id });
    expect(rejected).toMatchObject({ id: claim.id, status: "rejected", decidedBy: "operator", decidedAt: expect.any(String) });
    expect(await activeOwnerIds(database.db, business.id)).toEqual([]);
    expect(await ownershipOf(business.id)).toBe("unclaimed");
    expect(await updatesOf(business.id)).toHaveLength(eventsBefore);
    expect((await admin().claims.list({ status: "rejected" })).map((row) => row.id)).toContain(claim.id);
    await expect(admin().claims.approve({ id: claim.id })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("approves only a claim by review, and no disabled account; unknown or malformed ids are NOT_FOUND", async () => {
    const business = await unclaimedBusiness();
    const byEmail = await reviewClaim(business.id, "email-claimant@example.org", { method: "email" });
    await expect(admin().claims.approve({ id: byEmail.claim.id })).rejects.toMatchObject({ code: "CONFLICT" });

    const disabled = await reviewClaim(business.id, "disabled-claimant@example.org");
    await database.db.update(accounts).set({ disabledAt: new Date() }).where(eq(accounts.id, disabled.account.id));
    await expect(admin().claims.approve({ id: disabled.claim.id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await admin().claims.list({})).find((row) => row.id === disabled.claim.id)?.status).toBe("pending");
    expect(await activeOwnerIds(database.db, business.id)).toEqual([]);

    for (const id of ["5f0c6f7e-3c1a-4d7b-9a8e-000000000000", "not-a-claim"]) {
      await expect(admin().claims.approve({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(admin().claims.reject({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
  });
});

describe("ownershipAdmin.owners", () => {
  it("lists a listing's owners; removing one keeps it owner_verified while another remains, and unclaimed when the last goes", async () => {
    const business = await unclaimedBusiness();
    const first = await reviewClaim(business.id, "owner-one@example.org");
    const second = await reviewClaim(business.id, "owner-two@example.org");
    await admin().claims.approve({ id: first.claim.id });
    await admin().claims.approve({ id: second.claim.id });

    const listed = await admin().owners.list({ slug: business.slug });
    expect(listed).toMatchObject({ slug: business.slug, name: business.name, ownership: "owner_verified" });
    expect(listed.owners.map((owner) => [owner.email, owner.method, owner.decidedBy, owner.removedAt])).toEqual([
      ["owner-one@example.org", "review", "operator", null],
      ["owner-two@example.org", "review", "operator", null],
    ]);

    const eventsBefore = (await updatesOf(business.id)).length;
    expect(await admin().owners.remove({ slug: business.slug, email: "Owner-One@example.org" })).toEqual({
      slug: business.slug,
      email: "owner-one@example.org",
      remainingOwners: 1,
      ownership: "owner_verified",
    });
    expect(await ownershipOf(business.id)).toBe("owner_verified");
    await expect(admin().owners.remove({ slug: business.slug, email: "owner-one@example.org" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin().owners.remove({ slug: business.slug, email: "stranger@example.org" })).rejects.toMatchObject({ code: "NOT_FOUND" });

    expect(await admin().owners.remove({ slug: business.slug, email: "owner-two@example.org" })).toMatchObject({ remainingOwners: 0, ownership: "unclaimed" });
    expect(await ownershipOf(business.id)).toBe("unclaimed");
    expect(await updatesOf(business.id)).toHaveLength(eventsBefore + 2);

    expect((await admin().owners.list({ slug: business.slug })).owners).toEqual([]);
    const history = await admin().owners.list({ slug: business.slug, all: true });
    expect(history.owners.map((owner) => [owner.email, owner.removedAt !== null])).toEqual([
      ["owner-one@example.org", true],
      ["owner-two@example.org", true],
    ]);
  });

  it("answers NOT_FOUND for an unknown slug", async () => {
    await expect(admin().owners.list({ slug: "no-such-listing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin().owners.remove({ slug: "no-such-listing", email: "owner-one@example.org" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("only admin keys reach the ownership procedures", () => {
  it("refuses a developer key on each (FORBIDDEN), and changes nothing", async () => {
    const business = await unclaimedBusiness();
    const { claim } = await reviewClaim(business.id, "forbidden-claimant@example.org");
    const developer = callerWith(developerKey).ownershipAdmin;
    await expect(developer.claims.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.claims.approve({ id: claim.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.claims.reject({ id: claim.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.owners.list({ slug: business.slug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(developer.owners.remove({ slug: business.slug, email: "forbidden-claimant@example.org" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await admin().claims.list({})).find((row) => row.id === claim.id)?.status).toBe("pending");
  });
});
