import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agencies, agencyBusinessAccess, businessOwners, ownershipClaims } from "@directory/db";
import { approveOwnershipClaim } from "../../services/claims/ownership-review";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { claimCaller, createListing, ownershipOf, refusal, signInPerson, type Person } from "./ownership-fixtures";

/**
 * Claims made for an agency: a member names the agency when starting a claim, and when it succeeds
 * (by a mailed code, or an operator's approval) the person owns the listing and the agency has
 * access, in one transaction. A person outside the agency gets 404 and nothing is written.
 */

let database: TestDatabase;
let smtp: TestSmtpServer;
let agencyOwner: Person;
let member: Person;
let stranger: Person;
let agencySlug: string;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  smtp = await startTestSmtpServer();
  agencyOwner = await signInPerson(database, smtp, "agency-claims-owner@people.test");
  member = await signInPerson(database, smtp, "agency-claims-member@people.test");
  stranger = await signInPerson(database, smtp, "agency-claims-stranger@people.test");
  agencySlug = (await claimCaller(database, smtp, agencyOwner).agency.create({ name: "Claims Agency" })).slug;
  await claimCaller(database, smtp, agencyOwner).agency.members.invite({ agencySlug, email: member.email, role: "member" });
  await smtp.nextMail(member.email);
});

afterAll(async () => {
  await smtp?.close();
  await database?.destroy();
});

let listings = 0;
async function listing() {
  const n = ++listings;
  const mailbox = `desk${n}@agency-claims.test`;
  return { ...(await createListing(database, { name: `Agency Claims Shop ${n}`, email: mailbox })), mailbox };
}

async function mailedCode(person: Person, slug: string, mailbox: string, claimFor?: string): Promise<string> {
  await claimCaller(database, smtp, person).ownership.sendEmailCode({ slug, agencySlug: claimFor });
  const code = /\b(\d{6})\b/.exec((await smtp.nextMail(mailbox)).text)?.[1];
  if (!code) throw new Error("no code in the mail");
  return code;
}

const accessOf = async (businessId: string) =>
  database.db
    .select({ agencyId: agencyBusinessAccess.agencyId, grantedBy: agencyBusinessAccess.grantedBy, withdrawnAt: agencyBusinessAccess.withdrawnAt })
    .from(agencyBusinessAccess)
    .where(eq(agencyBusinessAccess.businessId, businessId));
const ownersOf = async (businessId: string) =>
  (await database.db.select({ accountId: businessOwners.accountId }).from(businessOwners).where(eq(businessOwners.businessId, businessId))).map(
    (row) => row.accountId,
  );
const claimsOf = async (businessId: string, accountId: string) =>
  database.db
    .select({ method: ownershipClaims.method, status: ownershipClaims.status, agencyId: ownershipClaims.agencyId })
    .from(ownershipClaims)
    .where(and(eq(ownershipClaims.businessId, businessId), eq(ownershipClaims.accountId, accountId)));
const agencyId = async () => (await database.db.select({ id: agencies.id }).from(agencies).where(eq(agencies.slug, agencySlug)))[0]!.id;

describe("claiming a listing for an agency", () => {
  it("a member claims by the mailed code: they own the listing and the agency has access (its overview lists it)", async () => {
    const shop = await listing();
    const code = await mailedCode(member, shop.slug, shop.mailbox, agencySlug.toUpperCase());
    expect(await claimsOf(shop.id, member.accountId)).toEqual([{ method: "email", status: "pending", agencyId: await agencyId() }]);
    expect(await accessOf(shop.id)).toEqual([]);
    // The claim page keeps the agency when the person asks for a new code.
    expect((await claimCaller(database, smtp, member).ownership.claimStatus({ slug: shop.slug })).pending).toEqual([
      expect.objectContaining({ method: "email", agencySlug }),
    ]);

    await claimCaller(database, smtp, member).ownership.verifyEmailCode({ slug: shop.slug, code });
    expect(await ownersOf(shop.id)).toEqual([member.accountId]);
    expect(await ownershipOf(database, shop.id)).toEqual({ ownership: "owner_verified", ownershipEvents: 1 });
    expect(await accessOf(shop.id)).toEqual([{ agencyId: await agencyId(), grantedBy: member.accountId, withdrawnAt: null }]);
    for (const person of [member, agencyOwner]) {
      const overview = await claimCaller(database, smtp, person).agency.overview({ agencySlug });
      expect(overview.businesses.map((business) => business.slug)).toContain(shop.slug);
    }
    // The claimant's own listing also lists the agency, as an owner's grant would.
    const granted = await claimCaller(database, smtp, member).owner.agencies.list({ slug: shop.slug });
    expect(granted).toMatchObject([{ slug: agencySlug }]);
  });

  it("a claim for yourself gives no agency access", async () => {
    const shop = await listing();
    const code = await mailedCode(member, shop.slug, shop.mailbox);
    await claimCaller(database, smtp, member).ownership.verifyEmailCode({ slug: shop.slug, code });
    expect(await ownersOf(shop.id)).toEqual([member.accountId]);
    expect(await claimsOf(shop.id, member.accountId)).toEqual([{ method: "email", status: "verified", agencyId: null }]);
    expect(await accessOf(shop.id)).toEqual([]);
  });

  it("a person outside the agency naming it gets 404 on every way to start a claim, and nothing is written or mailed", async () => {
    const shop = await listing();
    const asStranger = claimCaller(database, smtp, stranger);
    // Each call starts only when it is awaited: one started early would reject unobserved meanwhile.
    for (const call of [
      () => asStranger.ownership.sendEmailCode({ slug: shop.slug, agencySlug }),
      () => asStranger.ownership.startWebsiteClaim({ slug: shop.slug, agencySlug }),
      () => asStranger.ownership.requestReview({ slug: shop.slug, agencySlug, evidence: "We manage it for the owner" }),
      () => asStranger.ownership.sendEmailCode({ slug: shop.slug, agencySlug: "no-such-agency" }),
    ]) {
      expect(await refusal(call())).toMatchObject({ code: "NOT_FOUND" });
    }
    expect(await claimsOf(shop.id, stranger.accountId)).toEqual([]);
    expect(await accessOf(shop.id)).toEqual([]);
    expect(await ownersOf(shop.id)).toEqual([]);
    // No code was mailed: the next mail the listing's box gets is the one sent now, for the stranger's own claim.
    const code = await mailedCode(stranger, shop.slug, shop.mailbox);
    await claimCaller(database, smtp, stranger).ownership.verifyEmailCode({ slug: shop.slug, code });
    expect(await accessOf(shop.id)).toEqual([]);
  });

  it("a review for the agency, once an operator approves it, gives the agency access too", async () => {
    const shop = await listing();
    await claimCaller(database, smtp, member).ownership.requestReview({ slug: shop.slug, agencySlug, evidence: "We run their listings under contract" });
    const [claim] = await database.db
      .select({ id: ownershipClaims.id, agencyId: ownershipClaims.agencyId })
      .from(ownershipClaims)
      .where(and(eq(ownershipClaims.businessId, shop.id), eq(ownershipClaims.method, "review")));
    expect(claim!.agencyId).toBe(await agencyId());
    await approveOwnershipClaim(database.db, { id: claim!.id });
    expect(await ownersOf(shop.id)).toEqual([member.accountId]);
    expect(await accessOf(shop.id)).toEqual([{ agencyId: await agencyId(), grantedBy: member.accountId, withdrawnAt: null }]);
  });

  it("a member removed before the proof holds: the claim is refused (409) and nobody becomes the owner", async () => {
    const leaver = await signInPerson(database, smtp, "agency-claims-leaver@people.test");
    await claimCaller(database, smtp, agencyOwner).agency.members.invite({ agencySlug, email: leaver.email, role: "member" });
    await smtp.nextMail(leaver.email);
    const shop = await listing();
    const code = await mailedCode(leaver, shop.slug, shop.mailbox, agencySlug);
    await claimCaller(database, smtp, agencyOwner).agency.members.remove({ agencySlug, email: leaver.email });

    expect(await refusal(claimCaller(database, smtp, leaver).ownership.verifyEmailCode({ slug: shop.slug, code }))).toMatchObject({ code: "CONFLICT" });
    expect(await ownersOf(shop.id)).toEqual([]);
    expect(await accessOf(shop.id)).toEqual([]);
    expect(await ownershipOf(database, shop.id)).toEqual({ ownership: "unclaimed", ownershipEvents: 0 });
  });
});
