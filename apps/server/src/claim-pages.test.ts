import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownershipClaims } from "@directory/db";
import { startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
import { getPage, postForm, signInThroughPages, type PageSession } from "./account-pages-fixtures";
import { addListing, buttonsNamed, codeInMail, metaTagFor, startLoopbackSite, wrongCode, type LoopbackSite } from "./claim-pages-fixtures";
import { escapeHtml } from "./html";
import { startTestServer, type TestServer } from "./testing";

/**
 * Claiming a listing through the pages over plain HTTP, as a browser without JavaScript does: the
 * claim page, a website token put on a real site on loopback, a code read from the SMTP server, a
 * review where the listing has an owner. The procedures decide; the pages show their answers.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let site: LoopbackSite;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, rateLimits: { signInMailsPerClientPerHour: 1000, openPerMinute: 10_000, anonymousPerDay: 1_000_000 } });
  site = await startLoopbackSite();
});

afterAll(async () => {
  await site?.close();
  await server?.close();
  await smtp?.close();
});

const claimPath = (slug: string, step = "") => `/business/${slug}/claim${step}`;
const post = (session: PageSession, path: string, fields: Record<string, string> = {}) =>
  postForm(server.url, path, { csrfToken: session.csrfToken, ...fields }, { cookie: session.cookie });
const claimsOf = async (businessId: string) =>
  (await server.database.db.select().from(ownershipClaims).where(eq(ownershipClaims.businessId, businessId))).map((claim) => ({
    method: claim.method,
    status: claim.status,
  }));

describe("the claim page", () => {
  it("sends a signed-out visitor to /sign-in, and refuses a signed-out POST with 401", async () => {
    const listing = await addListing(server, { name: "Signed Out Dental", website: site.home });
    const page = await getPage(server.url, claimPath(listing.slug));
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/sign-in");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const refused = await postForm(server.url, claimPath(listing.slug, "/website"), {});
    expect(refused.status).toBe(401);
    expect(await claimsOf(listing.id)).toEqual([]);
  });

  it("offers the website, the email and a review, escaped, never stored, and 404 for an unknown listing", async () => {
    const session = await signInThroughPages(server.url, smtp, "offers@example.org");
    const listing = await addListing(server, { name: "O'Neil & Sons Dental", website: site.home, email: "desk@oneil.example" });
    const page = await getPage(server.url, claimPath(listing.slug), session.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    // A person's page with their CSRF token: not one of the public documents other origins may read.
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
    expect(page.body).toContain("<h1>Claim O&#39;Neil &amp; Sons Dental</h1>");
    expect(page.body).toContain(escapeHtml(site.home));
    expect(buttonsNamed(page.body, "Get a website token")).toBe(1);
    expect(buttonsNamed(page.body, "Send code")).toBe(1);
    expect(page.body).toMatch(/<label for="claim-evidence">Why the listing is yours<\/label><textarea id="claim-evidence" name="evidence"/);
    expect(buttonsNamed(page.body, "Ask for a review")).toBe(1);
    expect(page.body).not.toContain("Verify");
    expect(page.body).not.toMatch(/<script(?! src=)/);
    expect(page.body.match(/name="csrfToken" value="([^"]+)"/g)?.length).toBe(3);

    const unknown = await getPage(server.url, claimPath("no-such-listing-zz"), session.cookie);
    expect(unknown.status).toBe(404);
  });
});

describe("claiming by the website", () => {
  it("shows the token once with its meta tag and file, says where it looked, then makes the person the owner", async () => {
    const session = await signInThroughPages(server.url, smtp, "site-owner@example.org");
    const listing = await addListing(server, { name: "Harbour Lane Dental", website: site.home });
    const before = await getPage(server.url, `/business/${listing.slug}`);
    expect(before.body).toContain("Claim this business");
    expect((await getPage(server.url, claimPath(listing.slug), session.cookie)).body).not.toContain("Send code");

    const answer = await post(session, claimPath(listing.slug, "/website"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const token = /id="website-token">([^<]+)</.exec(answer.body)?.[1] ?? "";
    expect(token.length).toBeGreaterThan(20);
    expect(answer.body).toContain(escapeHtml(metaTagFor(token)));
    expect(answer.body).toContain(escapeHtml(new URL("/.well-known/business-directory-verification.txt", site.home).href));
    expect(buttonsNamed(answer.body, "Verify")).toBe(1);

    // Not on the site yet: the check says where it looked, offers Verify again and a new token, and never the token.
    const missing = await post(session, claimPath(listing.slug, "/website/verify"));
    expect(missing.status).toBe(409);
    expect(missing.body).toContain("Looked for");
    expect(missing.body).toContain(escapeHtml(site.home));
    expect(buttonsNamed(missing.body, "Verify")).toBe(1);
    expect(buttonsNamed(missing.body, "Get a new website token")).toBe(1);
    expect(missing.body).not.toContain(token);
    const waiting = await getPage(server.url, claimPath(listing.slug), session.cookie);
    expect(buttonsNamed(waiting.body, "Verify the website token")).toBe(1);
    expect(waiting.body).not.toContain(token);

    site.setHead(metaTagFor(token));
    const verified = await post(session, claimPath(listing.slug, "/website/verify"));
    expect(verified.status).toBe(303);
    expect(verified.headers.get("location")).toBe("/dashboard");

    const after = await getPage(server.url, `/business/${listing.slug}`);
    expect(after.body).toContain("Owner-verified");
    expect(after.body).not.toContain("Claim this business");
    const dashboard = await getPage(server.url, "/dashboard", session.cookie);
    expect(dashboard.body).toContain(`<a href="/business/${listing.slug}">Harbour Lane Dental</a>`);
    const owned = await getPage(server.url, claimPath(listing.slug), session.cookie);
    expect(owned.body).toContain("You own this listing");
    expect(owned.body).not.toContain("Ask for a review");
    site.setHead("");
  });
});

describe("claiming by email", () => {
  it("mails a code to the masked address; a wrong code shows the tries left, the right one makes the owner", async () => {
    const session = await signInThroughPages(server.url, smtp, "mail-owner@example.org");
    const listing = await addListing(server, { name: "Front Desk Dental", email: "front-desk@frontdesk.example" });
    const page = await getPage(server.url, claimPath(listing.slug), session.cookie);
    expect(page.body).not.toContain("Get a website token");

    const sent = await post(session, claimPath(listing.slug, "/email"));
    expect(sent.status).toBe(200);
    expect(sent.body).toContain("f***@frontdesk.example");
    expect(sent.body).not.toContain("front-desk@frontdesk.example");
    expect(sent.body).toMatch(/<label for="claim-code">Code<\/label><input id="claim-code" name="code" inputmode="numeric" autocomplete="one-time-code"/);
    expect(buttonsNamed(sent.body, "Verify")).toBe(1);
    const code = codeInMail((await smtp.nextMail("front-desk@frontdesk.example")).text);

    const wrong = await post(session, claimPath(listing.slug, "/email/verify"), { code: wrongCode(code) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain("Wrong code: 4 tries left");
    expect(wrong.body).toContain('aria-invalid="true"');
    expect(buttonsNamed(wrong.body, "Verify")).toBe(1);

    const right = await post(session, claimPath(listing.slug, "/email/verify"), { code });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/dashboard");
    expect((await getPage(server.url, `/business/${listing.slug}`)).body).toContain("Owner-verified");
    expect((await getPage(server.url, "/dashboard", session.cookie)).body).toContain("Front Desk Dental");

    const again = await post(session, claimPath(listing.slug, "/email/verify"), { code });
    expect(again.status).toBe(409);
    expect(again.body).toContain("This code was already used");
    expect(again.body).toContain("You own this listing");
  });

  it("after the last wrong try says the code expired and offers Send code again", async () => {
    const session = await signInThroughPages(server.url, smtp, "five-tries@example.org");
    const listing = await addListing(server, { name: "Five Tries Dental", email: "desk@fivetries.example" });
    await post(session, claimPath(listing.slug, "/email"));
    const code = codeInMail((await smtp.nextMail("desk@fivetries.example")).text);
    for (let left = 4; left > 0; left -= 1) {
      expect((await post(session, claimPath(listing.slug, "/email/verify"), { code: wrongCode(code) })).body).toContain(`Wrong code: ${left}`);
    }
    const spent = await post(session, claimPath(listing.slug, "/email/verify"), { code: wrongCode(code) });
    expect(spent.status).toBe(409);
    expect(spent.body).toContain("no tries are left");
    expect(buttonsNamed(spent.body, "Send code")).toBe(1);
    expect(spent.body).not.toContain("Verify");
    expect((await post(session, claimPath(listing.slug, "/email/verify"), { code })).status).toBe(409);
    expect((await getPage(server.url, `/business/${listing.slug}`)).body).toContain("Claim this business");
  });

  it("keeps a malformed code in the form's answer, 400", async () => {
    const session = await signInThroughPages(server.url, smtp, "malformed@example.org");
    const listing = await addListing(server, { name: "Malformed Code Dental", email: "desk@malformed.example" });
    await post(session, claimPath(listing.slug, "/email"));
    await smtp.nextMail("desk@malformed.example");
    const answer = await post(session, claimPath(listing.slug, "/email/verify"), { code: "12ab<" });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("the 6 digits of the code");
    expect(answer.body).not.toContain("12ab<");
  });
});

describe("a listing that has an owner", () => {
  it("offers a review only; the review answers pending, and proofs are refused", async () => {
    const owner = await signInThroughPages(server.url, smtp, "first-owner@example.org");
    const listing = await addListing(server, { name: "Owned Smile Dental", email: "desk@ownedsmile.example" });
    await post(owner, claimPath(listing.slug, "/email"));
    const code = codeInMail((await smtp.nextMail("desk@ownedsmile.example")).text);
    expect((await post(owner, claimPath(listing.slug, "/email/verify"), { code })).status).toBe(303);

    const other = await signInThroughPages(server.url, smtp, "second-claimant@example.org");
    const page = await getPage(server.url, claimPath(listing.slug), other.cookie);
    expect(page.status).toBe(200);
    expect(page.body).toContain("already has an owner");
    expect(page.body).not.toContain("Send code");
    expect(page.body).not.toContain("Get a website token");
    expect(buttonsNamed(page.body, "Ask for a review")).toBe(1);

    const refused = await post(other, claimPath(listing.slug, "/email"));
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("This listing already has an owner");
    expect(buttonsNamed(refused.body, "Ask for a review")).toBe(1);

    const empty = await post(other, claimPath(listing.slug, "/review"), { evidence: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("Your request was not sent");
    expect(empty.body).toContain('aria-invalid="true"');

    const evidence = "I am the <practice manager>; call the listed number & ask for Priya.";
    const review = await post(other, claimPath(listing.slug, "/review"), { evidence });
    expect(review.status).toBe(200);
    expect(review.body).toContain("An operator will review your request");
    expect(await claimsOf(listing.id)).toContainEqual({ method: "review", status: "pending" });
    expect((await getPage(server.url, claimPath(listing.slug), other.cookie)).body).toContain("Your request for a review is waiting");
  });
});

describe("forged requests", () => {
  it("refuses a POST without the csrfToken or from another site with 403, and changes nothing", async () => {
    const session = await signInThroughPages(server.url, smtp, "forged@example.org");
    const listing = await addListing(server, { name: "Forged Request Dental", website: site.home, email: "desk@forged.example" });
    for (const step of ["/website", "/website/verify", "/email", "/email/verify", "/review"]) {
      const withoutToken = await postForm(server.url, claimPath(listing.slug, step), { evidence: "mine", code: "123456" }, { cookie: session.cookie });
      expect(withoutToken.status, step).toBe(403);
      const foreign = await postForm(
        server.url,
        claimPath(listing.slug, step),
        { csrfToken: session.csrfToken, evidence: "mine", code: "123456" },
        { cookie: session.cookie, origin: "https://evil.example" },
      );
      expect(foreign.status, step).toBe(403);
    }
    expect(await claimsOf(listing.id)).toEqual([]);
    const page = await getPage(server.url, claimPath(listing.slug), session.cookie);
    expect(page.body).not.toContain("Verify");
    expect(page.body).not.toContain("Your request for a review is waiting");
  });
});
