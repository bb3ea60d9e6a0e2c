import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { businessOwners, ownershipClaims } from "@directory/db";
import { hashWebsiteToken } from "../../services/ownership/website-token";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import {
  claimCaller,
  createListing,
  homePage,
  ownershipOf,
  page,
  refusal,
  signInPerson,
  startTestSite,
  type Person,
  type TestSite,
} from "./ownership-fixtures";

/** ownership.* website proofs through tRPC callers with real sessions, a real database and real websites on loopback. */

let database: TestDatabase;
let smtp: TestSmtpServer;
const sites: TestSite[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  smtp = await startTestSmtpServer();
});

afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});

afterAll(async () => {
  await smtp?.close();
  await database?.destroy();
});

let listings = 0;

/** A person, a fresh listing whose website is a new loopback site, and the person's token for it. */
async function claimSetup(options: { person?: Person; path?: string } = {}) {
  const site = await startTestSite();
  sites.push(site);
  const n = ++listings;
  const listing = await createListing(database, { name: `Website Shop ${n}`, website: `${site.origin}${options.path ?? "/"}`, email: `shop${n}@shops.test` });
  const person = options.person ?? (await signInPerson(database, smtp, `web${n}@people.test`));
  const started = await claimCaller(database, smtp, person).ownership.startWebsiteClaim({ slug: listing.slug });
  return { site, listing, person, started };
}

async function ownerRow(businessId: string, accountId: string) {
  const [row] = await database.db
    .select()
    .from(businessOwners)
    .where(and(eq(businessOwners.businessId, businessId), eq(businessOwners.accountId, accountId)));
  return row;
}

describe("proving a listing by its website", () => {
  it("finds the meta tag on the home page (any attribute order and quotes): the person owns the listing, owner_verified, one event", async () => {
    const { site, listing, person, started } = await claimSetup();
    expect(started.token).toMatch(/^bdv_[A-Za-z0-9_-]{32}$/);
    expect(started.metaTag).toBe(`<meta name="business-directory-verification" content="${started.token}">`);
    expect(started.fileUrl).toBe(`${site.origin}/.well-known/business-directory-verification.txt`);
    const [stored] = await database.db.select().from(ownershipClaims).where(eq(ownershipClaims.businessId, listing.id));
    expect(stored!.secretHash).toBe(hashWebsiteToken(started.token));
    expect(JSON.stringify(stored)).not.toContain(started.token);

    const status = await claimCaller(database, smtp, person).ownership.claimStatus({ slug: listing.slug });
    expect(status).toMatchObject({ openToSelfProof: true, isOwner: false, website: `${site.origin}/`, hasEmail: true });
    expect(status.pending).toEqual([{ method: "website", status: "pending", expiresAt: started.expiresAt, attemptsLeft: null, agencySlug: null }]);
    expect(JSON.stringify(status)).not.toContain(started.token);

    site.routes.set("/", homePage(`<META content='${started.token}' data-x="a>b" NAME=Business-Directory-Verification />`));
    const proven = await claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug });
    expect(proven).toEqual({ owner: true, method: "website", business: { slug: listing.slug, name: expect.any(String) } });
    expect(await ownershipOf(database, listing.id)).toEqual({ ownership: "owner_verified", ownershipEvents: 1 });
    expect(await ownerRow(listing.id, person.accountId)).toMatchObject({ method: "website", decidedBy: `account:${person.accountId}`, removedAt: null });
    const after = await claimCaller(database, smtp, person).ownership.claimStatus({ slug: listing.slug });
    expect(after).toMatchObject({ openToSelfProof: false, isOwner: true, pending: [] });

    // Single use: the token proved once, and the listing is no longer open to proof.
    expect((await refusal(claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug }))).code).toBe("CONFLICT");
    expect((await ownershipOf(database, listing.id)).ownershipEvents).toBe(1);
  });

  it("finds the token alone in the well-known file when the home page has none", async () => {
    const { site, listing, person, started } = await claimSetup();
    site.routes.set("/", homePage(""));
    site.routes.set("/.well-known/business-directory-verification.txt", page(`\uFEFF  ${started.token}\r\n`, "text/plain"));
    await claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug });
    expect(await ownershipOf(database, listing.id)).toEqual({ ownership: "owner_verified", ownershipEvents: 1 });
    expect(site.requested).toEqual(["/", "/.well-known/business-directory-verification.txt"]);
  });

  it("says where it looked and what it found when the token is not there, and keeps the claim to check again", async () => {
    const { site, listing, person, started } = await claimSetup();
    site.routes.set(
      "/",
      page(`<html><head></head><body><p>Great! &lt;meta&gt;</p><meta name="business-directory-verification" content="${started.token}"></body></html>`),
    );
    const refused = await refusal(claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toContain(`${site.origin}/ has no such tag in its head`);
    expect(refused.message).toContain(`${site.origin}/.well-known/business-directory-verification.txt answered HTTP 404`);
    expect((await ownershipOf(database, listing.id)).ownership).toBe("unclaimed");

    site.routes.set("/", homePage(`<meta name="business-directory-verification" content="${started.token}">`));
    await claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug });
    expect((await ownershipOf(database, listing.id)).ownership).toBe("owner_verified");
  });

  it("a token of listing A on B's site proves nothing for B", async () => {
    const a = await claimSetup();
    const b = await claimSetup({ person: a.person });
    b.site.routes.set("/", homePage(`<meta name="business-directory-verification" content="${a.started.token}">`));
    b.site.routes.set("/.well-known/business-directory-verification.txt", page(a.started.token, "text/plain"));
    const refused = await refusal(claimCaller(database, smtp, a.person).ownership.checkWebsiteClaim({ slug: b.listing.slug }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toContain("holds another token, not yours for this listing");
    expect((await ownershipOf(database, b.listing.id)).ownership).toBe("unclaimed");
  });

  it("another person's token proves nothing for this person; a new start replaces the person's own earlier token", async () => {
    const theirs = await claimSetup();
    const mine = await signInPerson(database, smtp, "second-claimant@people.test");
    const first = await claimCaller(database, smtp, mine).ownership.startWebsiteClaim({ slug: theirs.listing.slug });
    const second = await claimCaller(database, smtp, mine).ownership.startWebsiteClaim({ slug: theirs.listing.slug });
    theirs.site.routes.set(
      "/",
      homePage([theirs.started.token, first.token].map((token) => `<meta name="business-directory-verification" content="${token}">`).join("")),
    );
    expect((await refusal(claimCaller(database, smtp, mine).ownership.checkWebsiteClaim({ slug: theirs.listing.slug }))).code).toBe("CONFLICT");
    const statuses = await database.db
      .select({ status: ownershipClaims.status })
      .from(ownershipClaims)
      .where(and(eq(ownershipClaims.businessId, theirs.listing.id), eq(ownershipClaims.accountId, mine.accountId)));
    expect(statuses.map((row) => row.status).sort()).toEqual(["expired", "pending"]);

    theirs.site.routes.set("/", homePage(`<meta name="business-directory-verification" content="${second.token}">`));
    await claimCaller(database, smtp, mine).ownership.checkWebsiteClaim({ slug: theirs.listing.slug });
    expect(await ownerRow(theirs.listing.id, mine.accountId)).toBeDefined();
    expect(await ownerRow(theirs.listing.id, theirs.person.accountId)).toBeUndefined();
  });
});

describe("the website fetch's outbound rules and caps", () => {
  it("refuses a site on a loopback address unless OUTBOUND_ALLOW_LOOPBACK, before any request reaches it", async () => {
    const { site, listing, person, started } = await claimSetup();
    site.routes.set("/", homePage(`<meta name="business-directory-verification" content="${started.token}">`));
    const refused = await refusal(claimCaller(database, smtp, person, { allowLoopback: false }).ownership.checkWebsiteClaim({ slug: listing.slug }));
    expect(refused).toEqual({ code: "FORBIDDEN", message: `The listing's website (${site.origin}) is not a public address: the service does not fetch it` });
    expect(site.requested).toEqual([]);
  });

  it("refuses a redirect to a private address, and follows no redirect to another site", async () => {
    const { site, listing, person, started } = await claimSetup();
    site.routes.set("/", (_request, response) => response.writeHead(302, { location: "http://10.0.0.5/" }).end());
    const refused = await refusal(claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug }));
    expect(refused).toEqual({
      code: "FORBIDDEN",
      message: "The listing's website redirected to http://10.0.0.5, which is not a public address: the service does not fetch it",
    });

    const elsewhere = await startTestSite();
    sites.push(elsewhere);
    elsewhere.routes.set("/", homePage(`<meta name="business-directory-verification" content="${started.token}">`));
    site.routes.set("/", (_request, response) => response.writeHead(301, { location: `${elsewhere.origin}/` }).end());
    const notFollowed = await refusal(claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug }));
    expect(notFollowed.code).toBe("CONFLICT");
    expect(notFollowed.message).toContain(`redirected to another site (${elsewhere.origin}); only redirects within the site are followed`);
    expect(elsewhere.requested).toEqual([]);
  });

  it("follows up to 3 redirects within the site", async () => {
    const { site, listing, person, started } = await claimSetup({ path: "/shop" });
    site.routes.set("/shop", (_request, response) => response.writeHead(301, { location: "/shop/" }).end());
    site.routes.set("/shop/", (_request, response) => response.writeHead(302, { location: `${site.origin}/shop/en` }).end());
    site.routes.set("/shop/en", (_request, response) => response.writeHead(307, { location: "en/home" }).end());
    site.routes.set("/shop/en/home", homePage(`<meta name="business-directory-verification" content="${started.token}">`));
    await claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug });
    expect((await ownershipOf(database, listing.id)).ownership).toBe("owner_verified");
  });

  it("reads at most 256 KiB of an endless body: a token in its head is found, one past the cap is not", async () => {
    const endless =
      (head: string): Parameters<TestSite["routes"]["set"]>[1] =>
      (_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        response.write(`<html><head>${head}`);
        const filler = `<!-- ${"x".repeat(16 * 1024)} -->`;
        const more = () => {
          while (!response.destroyed && response.write(filler));
          if (!response.destroyed) response.once("drain", more);
        };
        more();
      };
    const capped = await claimSetup();
    capped.site.routes.set("/", endless(""));
    const started = Date.now();
    const refused = await refusal(claimCaller(database, smtp, capped.person).ownership.checkWebsiteClaim({ slug: capped.listing.slug }));
    expect(refused.message).toContain("has no such tag in its head");
    expect(Date.now() - started).toBeLessThan(4_000);

    const pastTheCap = await claimSetup();
    const tag = `<meta name="business-directory-verification" content="${pastTheCap.started.token}">`;
    pastTheCap.site.routes.set("/", homePage(`<meta name="filler" content="${"y".repeat(300 * 1024)}">${tag}`));
    expect((await refusal(claimCaller(database, smtp, pastTheCap.person).ownership.checkWebsiteClaim({ slug: pastTheCap.listing.slug }))).code).toBe(
      "CONFLICT",
    );

    const found = await claimSetup();
    found.site.routes.set("/", endless(`<meta name="business-directory-verification" content="${found.started.token}">`));
    await claimCaller(database, smtp, found.person).ownership.checkWebsiteClaim({ slug: found.listing.slug });
    expect((await ownershipOf(database, found.listing.id)).ownership).toBe("owner_verified");
  });

  it("gives up on a site that does not answer within 5 seconds", async () => {
    const { site, listing, person } = await claimSetup();
    site.routes.set("/", () => {
      // Never answers: the fetch's own deadline must end it.
    });
    const started = Date.now();
    const refused = await refusal(claimCaller(database, smtp, person).ownership.checkWebsiteClaim({ slug: listing.slug }));
    const elapsed = Date.now() - started;
    expect(refused.message).toContain(`${site.origin}/ did not answer within 5 seconds`);
    expect(elapsed).toBeGreaterThanOrEqual(4_900);
    expect(elapsed).toBeLessThan(7_000);
  });
});
