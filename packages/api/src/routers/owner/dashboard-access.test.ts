import { TRPCError } from "@trpc/server";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, businesses, claims } from "@directory/db";
import { ensureAccount } from "../../services/accounts/plans";
import { createAgency } from "../../services/agencies/agencies";
import { BUSINESS_AGENCIES_MAX } from "../../services/agencies/agency-access";
import { addOwner } from "../../services/claims/ownership";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { anonymousCaller, keyedCaller } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { createListing, refusal } from "../ownership/ownership-fixtures";
import { ACTIONS, buildWorld, callerOf, expectedOutcome, leadTo, PEOPLE, snapshot, type World } from "./dashboard-access-fixtures";

/** Who may do what on the owner and agency dashboards (issue 40): every person against every procedure, through real sessions. */

let database: TestDatabase;
let smtp: TestSmtpServer;
let world: World;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  smtp = await startTestSmtpServer();
  world = await buildWorld(database, smtp, "access");
});

afterAll(async () => {
  await smtp?.close();
  await database?.destroy();
});

describe.each(ACTIONS)("$name", (action) => {
  it.each(PEOPLE)("as %s: allowed ones succeed, others are refused and change nothing", async (person) => {
    const expected = expectedOutcome(person, action.access);
    const prepared = action.prepare ? await action.prepare(world) : "";
    const before = await snapshot(database.db, world.listing.id);
    const outcome = await action.call(callerOf(world, person), world, prepared).then(
      () => "ok",
      (error: unknown) => (error instanceof TRPCError ? error.code : error),
    );
    expect(outcome).toBe(expected);
    const after = await snapshot(database.db, world.listing.id);
    // A query never writes; an allowed mutation must have written (so a silently ignored call fails too).
    if (expected === "ok" && action.mutation) expect(after).not.toEqual(before);
    else expect(after).toEqual(before);
  });
});

/** A listing of its own, owned by the matrix's owner. */
async function ownedListing(name: string) {
  const listing = await createListing(database, { name });
  await database.db.transaction((tx) =>
    addOwner(tx, { businessId: listing.id, accountId: world.people.owner.accountId, method: "operator", decidedBy: "operator" }),
  );
  return listing;
}

async function keyRevoked(id: string): Promise<boolean> {
  const [row] = await database.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, id));
  return row!.revokedAt !== null;
}

describe("an unknown listing", () => {
  it("is 404 to a signed-in person, owner or not", async () => {
    for (const person of ["owner", "stranger"] as const) {
      expect((await refusal(callerOf(world, person).owner.overview({ slug: "no-such-listing-anywhere" }))).code).toBe("NOT_FOUND");
    }
  });
});

describe("a business key", () => {
  it("acts only for its own business: naming a business is 403 and writes nothing, and it never sees another's leads", async () => {
    const own = await ownedListing("Access Key Shop");
    const other = await createListing(database, { name: "Access Key Other Shop" });
    const created = await callerOf(world, "owner").owner.keys.create({ slug: own.slug, label: "agent" });
    const keyed = keyedCaller(database.db, created.key);
    const ownLead = await leadTo(database, own.slug);
    const otherLead = await leadTo(database, other.slug);
    const before = { own: await snapshot(database.db, own.id), other: await snapshot(database.db, other.id) };

    for (const slug of [other.slug, own.slug]) {
      expect((await refusal(keyed.owner.updateListing({ slug, tagline: "Named a business" }))).code).toBe("FORBIDDEN");
      expect((await refusal(keyed.owner.leads.list({ slug }))).code).toBe("FORBIDDEN");
      expect((await refusal(keyed.leads.transition({ slug, leadId: otherLead, status: "contacted" }))).code).toBe("FORBIDDEN");
    }
    expect((await refusal(keyed.leads.transition({ leadId: otherLead, status: "contacted" }))).code).toBe("NOT_FOUND");
    expect({ own: await snapshot(database.db, own.id), other: await snapshot(database.db, other.id) }).toEqual(before);

    expect((await keyed.owner.leads.list({})).map((lead) => lead.leadId)).toEqual([ownLead]);
    expect((await keyed.owner.visibility({})).business.slug).toBe(own.slug);
    await keyed.owner.updateListing({ tagline: "Written by the key" });
    const [tagline] = await database.db
      .select({ source: claims.source })
      .from(claims)
      .where(and(eq(claims.businessId, own.id), eq(claims.property, "tagline"), isNull(claims.supersededAt)));
    expect(tagline?.source).toBe(`owner:key-${created.id}`);
  });

  it("cannot manage keys, co-owners, agencies or webhooks, so a leaked key cannot mint more", async () => {
    const { key } = await callerOf(world, "owner").owner.keys.create({ slug: world.listing.slug, label: "leaked" });
    const keyed = keyedCaller(database.db, key).owner;
    const before = await snapshot(database.db, world.listing.id);
    // Each call made only when awaited, one at a time.
    const calls = [
      () => keyed.keys.list({ slug: world.listing.slug }),
      () => keyed.keys.create({ slug: world.listing.slug, label: "minted" }),
      () => keyed.keys.revoke({ slug: world.listing.slug, id: "00000000-0000-4000-8000-000000000000" }),
      () => keyed.overview({ slug: world.listing.slug }),
      () => keyed.webhooks.list({ slug: world.listing.slug }),
      () => keyed.coOwners.invite({ slug: world.listing.slug, email: "intruder@example.org" }),
      () => keyed.agencies.grant({ slug: world.listing.slug, agencySlug: world.otherAgencySlug }),
    ];
    for (const call of calls) expect((await refusal(call())).code).toBe("FORBIDDEN");
    expect(await snapshot(database.db, world.listing.id)).toEqual(before);
  });
});

describe("an agency member", () => {
  it("edits the listing under their own account's name", async () => {
    const member = world.people.agencyMember;
    await callerOf(world, "agencyMember").owner.updateListing({ slug: world.listing.slug, website: "https://agency-edit.example/" });
    const [website] = await database.db
      .select({ source: claims.source })
      .from(claims)
      .where(and(eq(claims.businessId, world.listing.id), eq(claims.property, "website"), isNull(claims.supersededAt)));
    expect(website?.source).toBe(`owner:account-${member.accountId}`);
    expect((await callerOf(world, "agencyMember").owner.overview({ slug: world.listing.slug })).role).toBe("agency");
  });

  it("loses the listing when its access is withdrawn, with the business keys the agency took for it (and only those)", async () => {
    const listing = await ownedListing("Access Withdraw Shop");
    const asOwner = callerOf(world, "owner").owner;
    // An agency's slug is read as everywhere else it is named (agency.*, claims for an agency): case aside.
    await asOwner.agencies.grant({ slug: listing.slug, agencySlug: world.agency.slug.toUpperCase() });
    const agencyKey = await callerOf(world, "agencyMember").owner.keys.create({ slug: listing.slug, label: "agency agent" });
    const ownerKey = await asOwner.keys.create({ slug: listing.slug, label: "owner agent" });
    const elsewhere = await callerOf(world, "agencyMember").owner.keys.create({ slug: world.listing.slug, label: "kept" });
    const [held] = await database.db.select({ accountId: apiKeys.accountId }).from(apiKeys).where(eq(apiKeys.id, agencyKey.id));
    expect(held?.accountId).toBe(world.agency.accountId);
    await keyedCaller(database.db, agencyKey.key).owner.leads.list({});

    await asOwner.agencies.withdraw({ slug: listing.slug, agencySlug: ` ${world.agency.slug.toUpperCase()} ` });
    expect((await refusal(keyedCaller(database.db, agencyKey.key).owner.leads.list({}))).code).toBe("UNAUTHORIZED");
    await keyedCaller(database.db, ownerKey.key).owner.leads.list({});
    expect(await keyRevoked(elsewhere.id)).toBe(false);
    for (const person of ["agencyMember", "agencyOwner"] as const) {
      expect((await refusal(callerOf(world, person).owner.overview({ slug: listing.slug }))).code).toBe("FORBIDDEN");
    }
    expect((await asOwner.agencies.list({ slug: listing.slug })).map((agency) => agency.slug)).toEqual([]);
  });
});

describe("agencies' access", () => {
  it(`is granted to at most ${BUSINESS_AGENCIES_MAX} agencies at once, so every agency with access is listed and can be withdrawn`, async () => {
    const listing = await ownedListing("Access Crowded Shop");
    const asOwner = callerOf(world, "owner").owner;
    for (let i = 0; i <= BUSINESS_AGENCIES_MAX; i += 1) {
      const boss = await ensureAccount(database.db, `crowd-boss-${i}@access.test`);
      const agency = await createAgency(database.db, { accountId: boss.id, name: `Crowd Agency ${i}` });
      if (i < BUSINESS_AGENCIES_MAX) await asOwner.agencies.grant({ slug: listing.slug, agencySlug: agency.slug });
      else {
        const before = await snapshot(database.db, listing.id);
        expect((await refusal(asOwner.agencies.grant({ slug: listing.slug, agencySlug: agency.slug }))).code).toBe("CONFLICT");
        expect(await snapshot(database.db, listing.id)).toEqual(before);
        await asOwner.agencies.withdraw({ slug: listing.slug, agencySlug: "crowd-agency-0" });
        await asOwner.agencies.grant({ slug: listing.slug, agencySlug: agency.slug });
      }
    }
    const listed = (await asOwner.agencies.list({ slug: listing.slug })).map((agency) => agency.slug);
    expect(listed).toHaveLength(BUSINESS_AGENCIES_MAX);
    expect(listed).toContain(`crowd-agency-${BUSINESS_AGENCIES_MAX}`);
    // Granting again an agency that has access changes no count.
    await asOwner.agencies.grant({ slug: listing.slug, agencySlug: "crowd-agency-1" });
  });
});

describe("co-owners", () => {
  it("removed lose the listing and the keys they took; the last owner stays", async () => {
    const listing = await ownedListing("Access Co-owner Shop");
    const asOwner = callerOf(world, "owner").owner;
    await asOwner.coOwners.invite({ slug: listing.slug, email: world.people.stranger.email });
    const invitation = await smtp.nextMail(world.people.stranger.email);
    expect(invitation.text).toContain(`/dashboard/business/${listing.slug}`);
    const theirs = await callerOf(world, "stranger").owner.keys.create({ slug: listing.slug, label: "co-owner agent" });
    const ours = await asOwner.keys.create({ slug: listing.slug, label: "owner agent" });

    expect(await asOwner.coOwners.remove({ slug: listing.slug, email: world.people.stranger.email })).toEqual({ remainingOwners: 1 });
    expect((await refusal(keyedCaller(database.db, theirs.key).owner.leads.list({}))).code).toBe("UNAUTHORIZED");
    await keyedCaller(database.db, ours.key).owner.leads.list({});
    expect((await refusal(callerOf(world, "stranger").owner.overview({ slug: listing.slug }))).code).toBe("FORBIDDEN");

    const before = await snapshot(database.db, listing.id);
    expect((await refusal(asOwner.coOwners.remove({ slug: listing.slug, email: world.people.owner.email }))).code).toBe("CONFLICT");
    expect((await refusal(asOwner.coOwners.remove({ slug: listing.slug, email: "never-owned@example.org" }))).code).toBe("NOT_FOUND");
    expect(await snapshot(database.db, listing.id)).toEqual(before);
    expect((await asOwner.overview({ slug: listing.slug })).business.ownership).toBe("owner_verified");
  });
});

describe("internal scores", () => {
  it("reach the listing's managers and never its public profile", async () => {
    await database.db.update(businesses).set({ visibilityScore: 87, geoScore: 61 }).where(eq(businesses.id, world.listing.id));
    expect(await callerOf(world, "owner").owner.visibility({ slug: world.listing.slug })).toMatchObject({ visibilityScore: 87, geoScore: 61 });
    const profile = JSON.stringify(await anonymousCaller(database.db).entities.getEntityProfile({ slug: world.listing.slug }));
    expect(profile).toContain(world.listing.slug);
    for (const name of ["visibilityScore", "visibility_score", "geoScore", "geo_score"]) expect(profile).not.toContain(name);
  });
});
