import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessOwners, ownershipClaims } from "@directory/db";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { claimCaller, createListing, ownershipOf, refusal, signInPerson, type Person } from "./ownership-fixtures";

/** ownership.* email proofs through tRPC callers with real sessions, a real database and a real SMTP server on loopback. */

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

let listings = 0;

/** A fresh unclaimed listing with its own mailbox, and a person signed in to claim it. */
async function setup(options: { person?: Person } = {}) {
  const n = ++listings;
  const mailbox = `owner${n}@mail-shop.test`;
  const listing = await createListing(database, { name: `Mail Shop ${n}`, email: mailbox });
  const person = options.person ?? (await signInPerson(database, smtp, `mail${n}@people.test`));
  return { listing, mailbox, person };
}

/** Asks for a code and reads it from the mail the listing's mailbox received. */
async function mailedCode(person: Person, slug: string, mailbox: string): Promise<{ code: string; sentTo: string; text: string }> {
  const sent = await claimCaller(database, smtp, person).ownership.sendEmailCode({ slug });
  const mail = await smtp.nextMail(mailbox);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in: ${mail.text}`);
  return { code, sentTo: sent.sentTo, text: mail.text };
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

function verify(person: Person, slug: string, code: string) {
  return claimCaller(database, smtp, person).ownership.verifyEmailCode({ slug, code });
}

async function claimOf(businessId: string, accountId: string) {
  const [row] = await database.db
    .select()
    .from(ownershipClaims)
    .where(and(eq(ownershipClaims.businessId, businessId), eq(ownershipClaims.accountId, accountId), eq(ownershipClaims.method, "email")));
  return row!;
}

describe("proving a listing by its email", () => {
  it("mails a code to the listing's address (shown masked); 4 wrong tries, then the right one makes the person the owner, once", async () => {
    const { listing, mailbox, person } = await setup();
    const { code, sentTo, text } = await mailedCode(person, listing.slug, mailbox);
    expect(sentTo).toBe("o***@mail-shop.test");
    expect(text).toContain("30 minutes");
    const stored = await claimOf(listing.id, person.accountId);
    expect(stored.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect((await claimCaller(database, smtp, person).ownership.claimStatus({ slug: listing.slug })).pending).toEqual([
      { method: "email", status: "pending", expiresAt: stored.expiresAt!.toISOString(), attemptsLeft: 5, agencySlug: null },
    ]);

    for (const left of [4, 3, 2, 1]) {
      expect(await refusal(verify(person, listing.slug, wrong(code)))).toEqual({
        code: "BAD_REQUEST",
        message: `Wrong code: ${left} ${left === 1 ? "try" : "tries"} left`,
      });
    }
    expect(await verify(person, listing.slug, code)).toEqual({ owner: true, method: "email", business: { slug: listing.slug, name: expect.any(String) } });
    expect(await ownershipOf(database, listing.id)).toEqual({ ownership: "owner_verified", ownershipEvents: 1 });
    const [owner] = await database.db.select().from(businessOwners).where(eq(businessOwners.businessId, listing.id));
    expect(owner).toMatchObject({ accountId: person.accountId, method: "email", decidedBy: `account:${person.accountId}` });

    expect(await refusal(verify(person, listing.slug, code))).toEqual({ code: "CONFLICT", message: "This code was already used: a code works once" });
    expect((await ownershipOf(database, listing.id)).ownershipEvents).toBe(1);
  });

  it("expires the code at the fifth wrong try: the right code then fails", async () => {
    const { listing, mailbox, person } = await setup();
    const { code } = await mailedCode(person, listing.slug, mailbox);
    for (let i = 0; i < 4; i++) await refusal(verify(person, listing.slug, wrong(code)));
    expect(await refusal(verify(person, listing.slug, wrong(code)))).toEqual({
      code: "CONFLICT",
      message: "Wrong code, and no tries are left: this code has expired; ask for a new one",
    });
    expect((await claimOf(listing.id, person.accountId)).status).toBe("expired");
    expect((await refusal(verify(person, listing.slug, code))).code).toBe("CONFLICT");
    expect((await ownershipOf(database, listing.id)).ownership).toBe("unclaimed");
  });

  it("compares no more than 5 tries however many arrive at once", async () => {
    const { listing, mailbox, person } = await setup();
    const { code } = await mailedCode(person, listing.slug, mailbox);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.all(guesses.map((guess) => refusal(verify(person, listing.slug, guess))));
    expect(results.filter((result) => result.message.startsWith("Wrong code")).length).toBe(5);
    expect((await claimOf(listing.id, person.accountId)).attempts).toBe(5);
    expect((await refusal(verify(person, listing.slug, code))).code).toBe("CONFLICT");
  });

  it("expires the code after 30 minutes", async () => {
    const { listing, mailbox, person } = await setup();
    const { code } = await mailedCode(person, listing.slug, mailbox);
    const stored = await claimOf(listing.id, person.accountId);
    const thirtyMinutes = stored.expiresAt!.getTime() - stored.createdAt.getTime();
    expect(thirtyMinutes).toBeGreaterThan(29 * 60_000);
    expect(thirtyMinutes).toBeLessThanOrEqual(30 * 60_000 + 1_000);
    await database.db
      .update(ownershipClaims)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(ownershipClaims.id, stored.id));
    expect(await refusal(verify(person, listing.slug, code))).toEqual({
      code: "CONFLICT",
      message: "This code has expired (after 30 minutes or 5 wrong tries): ask for a new one",
    });
    expect((await claimOf(listing.id, person.accountId)).status).toBe("expired");
    expect((await ownershipOf(database, listing.id)).ownership).toBe("unclaimed");
  });

  it("a code is the person's for the listing: another person's code, or one for another listing, matches nothing", async () => {
    const first = await setup();
    const other = await signInPerson(database, smtp, "code-thief@people.test");
    const { code } = await mailedCode(first.person, first.listing.slug, first.mailbox);
    expect((await refusal(verify(other, first.listing.slug, code))).message).toBe("No code is waiting for you for this listing: ask for one");
    await mailedCode(other, first.listing.slug, first.mailbox);
    expect((await refusal(verify(other, first.listing.slug, code))).code).toBe("BAD_REQUEST");

    const second = await setup({ person: first.person });
    await mailedCode(first.person, second.listing.slug, second.mailbox);
    expect((await refusal(verify(first.person, second.listing.slug, code))).code).toBe("BAD_REQUEST");
    expect((await ownershipOf(database, second.listing.id)).ownership).toBe("unclaimed");
    // The person's code for the first listing still works there: nothing above touched it.
    await verify(first.person, first.listing.slug, code);
    expect((await ownershipOf(database, first.listing.id)).ownership).toBe("owner_verified");
  });

  it("a new code replaces the person's earlier one", async () => {
    const { listing, mailbox, person } = await setup();
    const earlier = await mailedCode(person, listing.slug, mailbox);
    const later = await mailedCode(person, listing.slug, mailbox);
    if (earlier.code !== later.code) expect((await refusal(verify(person, listing.slug, earlier.code))).code).toBe("BAD_REQUEST");
    await verify(person, listing.slug, later.code);
    expect((await ownershipOf(database, listing.id)).ownership).toBe("owner_verified");
  });

  it("refuses a listing without an email, or with an owner", async () => {
    const person = await signInPerson(database, smtp, "no-mailbox@people.test");
    const bare = await createListing(database, { name: "No Mailbox Shop" });
    expect(await refusal(claimCaller(database, smtp, person).ownership.sendEmailCode({ slug: bare.slug }))).toEqual({
      code: "CONFLICT",
      message: "This listing has no email address: prove it by its website, or ask for a review",
    });
    expect(await refusal(claimCaller(database, smtp, person).ownership.startWebsiteClaim({ slug: bare.slug }))).toEqual({
      code: "CONFLICT",
      message: "This listing has no website: prove it by its email address, or ask for a review",
    });
  });
});
