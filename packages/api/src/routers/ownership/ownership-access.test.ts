import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownershipClaims } from "@directory/db";
import { decommissionBusiness } from "../../services/claims/lifecycle";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { TRUNCATION_NOTE } from "../../services/shared/owner-text";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { claimCaller, createListing, ownershipOf, refusal, signInPerson, type Person } from "./ownership-fixtures";

/** ownership.*: reviews, a listing that has an owner, claim floods, and who may call at all; real sessions, database and SMTP server. */

let database: TestDatabase;
let smtp: TestSmtpServer;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
  await database?.destroy();
});

let n = 0;
const person = () => signInPerson(database, smtp, `person${++n}@access.test`);
const listing = (email = `shop${++n}@access-shop.test`) => createListing(database, { name: `Access Shop ${n}`, website: "https://shop.example/", email });

/** Makes a person the owner of a listing by the email proof. */
async function proveByEmail(owner: Person, slug: string, mailbox: string): Promise<void> {
  await claimCaller(database, smtp, owner).ownership.sendEmailCode({ slug });
  const code = /\b(\d{6})\b/.exec((await smtp.nextMail(mailbox)).text)![1]!;
  await claimCaller(database, smtp, owner).ownership.verifyEmailCode({ slug, code });
}

describe("a listing that has an owner", () => {
  it("is claimed only through review: website and email refused, a review accepted and kept to one per person", async () => {
    const mailbox = "owned@access-shop.test";
    const owned = await listing(mailbox);
    const owner = await person();
    await proveByEmail(owner, owned.slug, mailbox);
    const claimant = await person();
    const as = claimCaller(database, smtp, claimant).ownership;
    const ownedMessage =
      "This listing already has an owner: it can only be claimed through a review by an operator: ask for one, saying how the business is yours";
    expect(await refusal(as.startWebsiteClaim({ slug: owned.slug }))).toEqual({ code: "CONFLICT", message: ownedMessage });
    expect(await refusal(as.sendEmailCode({ slug: owned.slug }))).toEqual({ code: "CONFLICT", message: ownedMessage });

    const first = await as.requestReview({ slug: owned.slug, evidence: "I run the\u200B shop since 2019; call the number on the door." });
    expect(first).toMatchObject({ status: "pending", created: true });
    const second = await as.requestReview({ slug: owned.slug, evidence: `${"I am the owner. ".repeat(125)}` });
    expect(second).toEqual({ status: "pending", created: false, createdAt: first.createdAt });
    const reviews = await database.db
      .select()
      .from(ownershipClaims)
      .where(and(eq(ownershipClaims.businessId, owned.id), eq(ownershipClaims.accountId, claimant.accountId)));
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!).toMatchObject({ method: "review", status: "pending", secretHash: null });
    expect(reviews[0]!.evidence!.endsWith(TRUNCATION_NOTE)).toBe(true);
    expect(reviews[0]!.evidence!.length).toBeLessThanOrEqual(1_000 + TRUNCATION_NOTE.length);

    expect(await as.claimStatus({ slug: owned.slug })).toMatchObject({
      openToSelfProof: false,
      isOwner: false,
      pending: [{ method: "review", status: "pending", expiresAt: null, attemptsLeft: null, agencySlug: null }],
    });
    expect(await refusal(claimCaller(database, smtp, owner).ownership.requestReview({ slug: owned.slug, evidence: "mine" }))).toEqual({
      code: "CONFLICT",
      message: "You already own this listing",
    });
    expect((await ownershipOf(database, owned.id)).ownershipEvents).toBe(1);
  });

  it("takes evidence an operator can read: 1 to 2000 characters, not only invisible ones", async () => {
    const open = await listing();
    const as = claimCaller(database, smtp, await person()).ownership;
    expect((await refusal(as.requestReview({ slug: open.slug, evidence: "\u200B\u200B" }))).code).toBe("BAD_REQUEST");
    expect((await refusal(as.requestReview({ slug: open.slug, evidence: "x".repeat(2001) }))).code).toBe("BAD_REQUEST");
    expect((await refusal(as.requestReview({ slug: open.slug, evidence: "" }))).code).toBe("BAD_REQUEST");
    expect((await as.requestReview({ slug: open.slug, evidence: "Registered to me at the chamber of commerce" })).created).toBe(true);
  });
});

describe("claim floods", () => {
  it("refuses a person's 11th claim in an hour, and a listing's 21st in a day", async () => {
    const target = await listing();
    const [flooder, helper, late] = [await person(), await person(), await person()];
    for (let i = 0; i < 10; i++) await claimCaller(database, smtp, flooder).ownership.requestReview({ slug: target.slug, evidence: `try ${i}` });
    const personal = await refusal(claimCaller(database, smtp, flooder).ownership.startWebsiteClaim({ slug: target.slug }));
    expect(personal.code).toBe("TOO_MANY_REQUESTS");
    expect(personal.message).toMatch(/^Your hourly limit of ownership claims of 10 requests is used up/);

    for (let i = 0; i < 10; i++) await claimCaller(database, smtp, helper).ownership.requestReview({ slug: target.slug, evidence: `try ${i}` });
    const perListing = await refusal(claimCaller(database, smtp, late).ownership.requestReview({ slug: target.slug, evidence: "me too" }));
    expect(perListing.code).toBe("TOO_MANY_REQUESTS");
    expect(perListing.message).toMatch(/^This listing's daily limit of ownership claims of 20 requests is used up/);
  });

  it("mails a listing at most 3 codes an hour, whoever asks", async () => {
    const mailbox = "flooded@access-shop.test";
    const target = await listing(mailbox);
    for (let i = 0; i < 3; i++) {
      await claimCaller(database, smtp, await person()).ownership.sendEmailCode({ slug: target.slug });
      await smtp.nextMail(mailbox);
    }
    const refused = await refusal(claimCaller(database, smtp, await person()).ownership.sendEmailCode({ slug: target.slug }));
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.message).toMatch(/^The hourly limit of codes mailed to this listing of 3 requests is used up/);
  });
});

describe("who may claim", () => {
  it("refuses a signed-out caller", async () => {
    const open = await listing();
    expect((await refusal(claimCaller(database, smtp, null).ownership.claimStatus({ slug: open.slug }))).code).toBe("UNAUTHORIZED");
    expect((await refusal(claimCaller(database, smtp, null).ownership.startWebsiteClaim({ slug: open.slug }))).code).toBe("UNAUTHORIZED");
  });

  it("refuses a change from another site's page, or without the session's CSRF token; counts nothing for it", async () => {
    const open = await listing();
    const someone = await person();
    const foreign = await refusal(claimCaller(database, smtp, someone, { origin: "https://evil.example" }).ownership.startWebsiteClaim({ slug: open.slug }));
    expect(foreign.code).toBe("FORBIDDEN");
    expect((await refusal(claimCaller(database, smtp, someone, { csrfToken: null }).ownership.sendEmailCode({ slug: open.slug }))).code).toBe("FORBIDDEN");
    const claims = await database.db.select().from(ownershipClaims).where(eq(ownershipClaims.businessId, open.id));
    expect(claims).toEqual([]);
  });

  it("answers the usual lookup errors for an unknown or decommissioned listing, and refuses a malformed code", async () => {
    const someone = await person();
    const as = claimCaller(database, smtp, someone).ownership;
    expect(await refusal(as.claimStatus({ slug: "no-such-listing" }))).toEqual({
      code: "NOT_FOUND",
      // The closest slugs by name may follow (issue 42's misses that point the way).
      message: expect.stringContaining('No business found for slug "no-such-listing"') as string,
    });
    expect((await refusal(as.startWebsiteClaim({ slug: "no-such-listing" }))).code).toBe("NOT_FOUND");
    const closed = await listing();
    await decommissionBusiness(database.db, { slug: closed.slug });
    const gone = await refusal(as.sendEmailCode({ slug: closed.slug }));
    expect(gone.code).toBe("NOT_FOUND");
    expect(gone.message).toContain("has been decommissioned");
    const open = await listing();
    expect((await refusal(as.verifyEmailCode({ slug: open.slug, code: "12345" }))).code).toBe("BAD_REQUEST");
    expect((await refusal(as.verifyEmailCode({ slug: open.slug, code: "12345a" }))).code).toBe("BAD_REQUEST");
  });
});
