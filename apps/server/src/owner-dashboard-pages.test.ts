import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
import { sessionHeaders, signInOverHttp, trpcCall, trpcData } from "./account-http-fixtures";
import { getPage, postForm, signInThroughPages, type PageSession } from "./account-pages-fixtures";
import { escapeHtml } from "./html";
import {
  listingsWithCitations,
  makeOwner,
  newKeyOn,
  proposeCorrection,
  publicClaims,
  registerWebhook,
  sendLead,
  type ManagedListing,
} from "./owner-dashboard-fixtures";
import { startTestServer, type TestServer } from "./testing";

/**
 * The owner dashboard (/dashboard/business/{slug}) over plain HTTP, as a browser without JavaScript
 * uses it: each section with the listing's real data, and each form changing what the procedures
 * change. Strangers, signed-out visitors and forged forms change nothing.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let nextListing: () => Promise<ManagedListing>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, rateLimits: { signInMailsPerClientPerHour: 1000, openPerMinute: 10_000, anonymousPerDay: 1_000_000 } });
  nextListing = listingsWithCitations(server);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const path = (slug: string, step = "") => `/dashboard/business/${slug}${step}`;
const post = (session: PageSession, to: string, fields: Record<string, string> = {}) =>
  postForm(server.url, to, { csrfToken: session.csrfToken, ...fields }, { cookie: session.cookie });
let people = 0;

/** A person signed in through the pages, owner of a new listing with citations. */
async function owner(): Promise<{ session: PageSession; listing: ManagedListing; email: string; accountId: string }> {
  people += 1;
  const email = `owner-${people}@example.org`;
  const session = await signInThroughPages(server.url, smtp, email);
  const listing = await nextListing();
  const accountId = await makeOwner(server, email, listing.id);
  return { session, listing, email, accountId };
}

/** The current fields of the facts form, as a browser would send them all back. */
function factsFormOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input id="fact-(\w+)" name="\w+"[^>]*value="([^"]*)">/g)) fields[match[1]!] = match[2]!;
  for (const match of html.matchAll(/<textarea id="fact-(\w+)" name="\w+"[^>]*>([^<]*)<\/textarea>/g)) fields[match[1]!] = match[2]!;
  const decode = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, decode(value)]));
}

describe("who sees the owner dashboard", () => {
  it("sends a signed-out visitor to sign in, and refuses a signed-out POST with 401", async () => {
    const { listing } = await owner();
    const page = await getPage(server.url, path(listing.slug));
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/sign-in");
    const refused = await postForm(server.url, path(listing.slug, "/listing"), { tagline: "Signed out" });
    expect(refused.status).toBe(401);
    expect((await publicClaims(server, listing.slug)).find((claim) => claim.property === "tagline")?.value).not.toBe("Signed out");
  });

  it("answers a stranger 403 and changes nothing, and an unknown listing 404", async () => {
    const { listing } = await owner();
    const stranger = await signInThroughPages(server.url, smtp, "stranger@example.org");
    expect((await getPage(server.url, path(listing.slug), stranger.cookie)).status).toBe(403);
    const before = await publicClaims(server, listing.slug);
    const edit = await post(stranger, path(listing.slug, "/listing"), { tagline: "Taken over" });
    expect(edit.status).toBe(403);
    expect(edit.body).toContain("You do not manage");
    expect((await post(stranger, path(listing.slug, "/keys"), { label: "stolen" })).status).toBe(403);
    expect((await post(stranger, path(listing.slug, "/co-owners"), { email: "stranger@example.org" })).status).toBe(403);
    expect(await publicClaims(server, listing.slug)).toEqual(before);
    expect((await getPage(server.url, path("no-such-listing-zz"), stranger.cookie)).status).toBe(404);
  });

  it("refuses a forged POST without the CSRF token, or from another site", async () => {
    const { session, listing } = await owner();
    const forged = await postForm(server.url, path(listing.slug, "/listing"), { tagline: "Forged" }, { cookie: session.cookie });
    expect(forged.status).toBe(403);
    const foreign = await postForm(
      server.url,
      path(listing.slug, "/listing"),
      { tagline: "Forged", csrfToken: session.csrfToken },
      { cookie: session.cookie, origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect((await publicClaims(server, listing.slug)).find((claim) => claim.property === "tagline")?.value).not.toBe("Forged");
  });
});

describe("the sections, with the listing's real data", () => {
  it("shows the scores, the chart, facts, leads, corrections, keys, webhooks, co-owners and agencies", async () => {
    const { session, listing, email } = await owner();
    await sendLead(server, listing.slug, "Asha Rao");
    await proposeCorrection(server, listing.slug, "The number on the shop sign changed last month");
    const created = await post(session, path(listing.slug, "/keys"), { label: "Booking system" });
    await registerWebhook(server, newKeyOn(created.body)!, "http://127.0.0.1:9/hooks/listing");

    const dashboard = await getPage(server.url, "/dashboard", session.cookie);
    expect(dashboard.body).toContain(`<a href="/dashboard/business/${listing.slug}">Manage this listing</a>`);
    const page = await getPage(server.url, path(listing.slug), session.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body).toContain(`<h1>${escapeHtml(listing.name)}: dashboard</h1>`);

    const http = await signInOverHttp(server.url, smtp, email);
    const visibility = await trpcData<{ visibilityScore: number; geoScore: number; citationRate: { checks: number; mentioned: number } }>(
      await trpcCall(server.url, "owner.visibility", "query", { slug: listing.slug }, sessionHeaders(http)),
    );
    const citations = await trpcData<{ checks: { checkedAt: string }[]; total: number }>(
      await trpcCall(server.url, "owner.citations", "query", { slug: listing.slug, limit: 100 }, sessionHeaders(http)),
    );
    expect(citations.total).toBeGreaterThan(0);
    expect(page.body).toContain(`<dt>Visibility score</dt><dd><strong>${visibility.visibilityScore}</strong> out of 100`);
    expect(page.body).toContain(`<dt>GEO score</dt><dd><strong>${visibility.geoScore}</strong> out of 100`);
    expect(page.body).toContain(`${visibility.citationRate.mentioned} of ${visibility.citationRate.checks} AI answers named the business`);
    expect(page.body).toMatch(/<svg class="chart" role="img" aria-labelledby="citations-chart-title citations-chart-desc"/);
    expect(page.body).toMatch(/<table class="weeks">.*<th scope="col">Week of<\/th><th scope="col">Checks<\/th><th scope="col">Mentioned<\/th>/s);
    // Every check is counted in one week's row of the chart's table, or among the older ones the page says it leaves out.
    const weekRows = [...page.body.matchAll(/<tr><th scope="row">\d{4}-\d{2}-\d{2}<\/th><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g)];
    const older = Number(/<span class="older-checks">(\d+)<\/span>/.exec(page.body)?.[1] ?? 0);
    expect(weekRows.reduce((sum, row) => sum + Number(row[1]), 0) + older).toBe(citations.checks.length);

    const claims = await publicClaims(server, listing.slug);
    expect(page.body).toContain('<table class="claims">');
    expect(page.body.match(/<tr><th scope="row" data-label="Fact">/g)?.length).toBe(claims.length);
    expect(page.body).toMatch(/<label for="fact-phone">Phone<\/label><input id="fact-phone" name="phone"/);
    expect(page.body).toContain(">Save</button>");

    expect(page.body).toContain("<h3>Asha Rao</h3>");
    expect(page.body).toContain(">Move lead</button>");
    expect(page.body).toContain("The number on the shop sign changed last month");
    expect(page.body).toContain("<h3>Booking system</h3>");
    expect(page.body).not.toContain(newKeyOn(created.body)!);
    expect(page.body).toContain(">Revoke</button>");
    expect(page.body).toContain("http://127.0.0.1:9/hooks/listing");
    expect(page.body).toContain(`<strong>${email}</strong> (you)`);
    expect(page.body).toContain(">Invite</button>");
    expect(page.body).toContain(">Grant access</button>");
  });
});

describe("with no AI engine configured (the default)", () => {
  it("says so in the AI engines section, offers no recheck, and refuses a posted one with 409 saying why", async () => {
    const { session, listing } = await owner();
    const page = await getPage(server.url, path(listing.slug), session.cookie);
    expect(page.body).toContain(
      '<p class="notice" role="status" id="no-engine">No AI engine is configured on this service (CITATION_ENGINES is empty), so it runs no checks of its own: the checks shown come from AI answers an operator ingested.</p>',
    );
    expect(page.body).not.toContain("Recheck now");
    const posted = await post(session, path(listing.slug, "/citations/recheck"));
    expect(posted.status).toBe(409);
    expect(posted.body).toContain("No recheck was queued: Nothing to recheck with: No AI engine is configured on this service");
  });
});

describe("editing the facts", () => {
  it("publishes a changed fact with the owner's source, and leaves the untouched facts' sources alone", async () => {
    const { session, listing, accountId } = await owner();
    const before = await publicClaims(server, listing.slug);
    const form = factsFormOf((await getPage(server.url, path(listing.slug), session.cookie)).body);
    const saved = await post(session, path(listing.slug, "/listing"), { ...form, phone: "+91 22 4000 1234", services: "Root canals\nCleaning" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`${path(listing.slug)}?done=saved#facts`);

    const after = await publicClaims(server, listing.slug);
    expect(after.find((claim) => claim.property === "phone")).toMatchObject({ value: "+91 22 4000 1234", source: `owner:account-${accountId}` });
    expect(after.find((claim) => claim.property === "services")).toMatchObject({ value: ["Root canals", "Cleaning"], source: `owner:account-${accountId}` });
    const untouched = before.find((claim) => claim.property === "address");
    expect(untouched?.source).not.toMatch(/^owner:/);
    expect(after.find((claim) => claim.property === "address")).toEqual(untouched);
    const page = await getPage(server.url, `${path(listing.slug)}?done=saved`, session.cookie);
    expect(page.body).toContain("Your changes were saved");
  });

  it("shows a refused value on the page with 400, keeping what was typed, and saves nothing", async () => {
    const { session, listing } = await owner();
    const before = await publicClaims(server, listing.slug);
    const refused = await post(session, path(listing.slug, "/listing"), { phone: "12345", tagline: "Typed & kept" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/<p id="facts-error" class="notice error" role="alert">Nothing was saved: [^<]*phone/);
    expect(refused.body).toMatch(/<input id="fact-phone" name="phone" aria-describedby="fact-phone-help facts-error" aria-invalid="true"[^>]*value="12345">/);
    expect(refused.body).toContain('value="Typed &amp; kept"');
    expect(await publicClaims(server, listing.slug)).toEqual(before);
  });
});

describe("business keys", () => {
  it("shows a new key once; it works as a Bearer key on the owner API until it is revoked", async () => {
    const { session, listing } = await owner();
    const created = await post(session, path(listing.slug, "/keys"), { label: "Front desk" });
    expect(created.status).toBe(200);
    const key = newKeyOn(created.body)!;
    expect(key).toBeTruthy();
    const visibility = await fetch(`${server.url}/api/v2/owner/visibility`, { headers: { authorization: `Bearer ${key}` } });
    expect(visibility.status).toBe(200);
    expect(((await visibility.json()) as { business: { slug: string } }).business.slug).toBe(listing.slug);

    const page = await getPage(server.url, path(listing.slug), session.cookie);
    expect(page.body).not.toContain(key);
    const id = /action="\/dashboard\/business\/[^"]+\/keys\/revoke">.*?name="id" value="([^"]+)"/.exec(page.body)?.[1];
    const revoked = await post(session, path(listing.slug, "/keys/revoke"), { id: id! });
    expect(revoked.status).toBe(303);
    expect((await fetch(`${server.url}/api/v2/owner/visibility`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

    const empty = await post(session, path(listing.slug, "/keys"), { label: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("The key was not created");
  });
});

describe("leads", () => {
  it("moves a lead to one of its next statuses, and refuses one it cannot move to with 409 on the page", async () => {
    const { session, listing } = await owner();
    const leadId = await sendLead(server, listing.slug, "Vikram Shah");
    const wrong = await post(session, path(listing.slug, "/leads"), { leadId, status: "won" });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toContain('class="notice error" role="alert"');
    const moved = await post(session, path(listing.slug, "/leads"), { leadId, status: "contacted" });
    expect(moved.status).toBe(303);
    const page = await getPage(server.url, path(listing.slug), session.cookie);
    expect(page.body).toMatch(/<h3>Vikram Shah<\/h3><dl class="facts">\s*<dt>Status<\/dt><dd class="lead-status">Contacted<\/dd>/);
    expect(page.body).toContain('<option value="won">Won</option>');
  });
});

describe("co-owners and agencies (owners only)", () => {
  it("invites a co-owner (mailed), removes them, and refuses to remove the last owner", async () => {
    const { session, listing, email } = await owner();
    const invited = await post(session, path(listing.slug, "/co-owners"), { email: "partner@example.org" });
    expect(invited.status).toBe(303);
    expect((await smtp.nextMail("partner@example.org")).text).toContain(listing.slug);
    expect((await getPage(server.url, path(listing.slug), session.cookie)).body).toContain("<strong>partner@example.org</strong>");

    const bad = await post(session, path(listing.slug, "/co-owners"), { email: "not an address" });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('value="not an address"');

    expect((await post(session, path(listing.slug, "/co-owners/remove"), { email: "partner@example.org" })).status).toBe(303);
    expect((await getPage(server.url, path(listing.slug), session.cookie)).body).not.toContain("<strong>partner@example.org</strong>");
    const last = await post(session, path(listing.slug, "/co-owners/remove"), { email });
    expect(last.status).toBe(409);
    expect((await getPage(server.url, path(listing.slug), session.cookie)).status).toBe(200);
  });

  it("grants an agency access (its members then manage the listing, not its owners), and withdraws it", async () => {
    const { session, listing } = await owner();
    const member = await signInOverHttp(server.url, smtp, "agency-member@example.org");
    const agency = await trpcData<{ slug: string }>(
      await trpcCall(server.url, "agency.create", "mutation", { name: "Harbour Digital" }, sessionHeaders(member)),
    );

    const unknown = await post(session, path(listing.slug, "/agencies"), { agencySlug: "no-such-agency-zz" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('value="no-such-agency-zz"');
    expect((await post(session, path(listing.slug, "/agencies"), { agencySlug: agency.slug })).status).toBe(303);
    expect((await getPage(server.url, path(listing.slug), session.cookie)).body).toContain("<strong>Harbour Digital</strong>");

    const asMember = await getPage(server.url, path(listing.slug), member.cookie);
    expect(asMember.status).toBe(200);
    expect(asMember.body).toContain("as a member of an agency");
    expect(asMember.body).not.toContain(">Grant access</button>");
    expect(asMember.body).not.toContain(">Invite</button>");
    expect(
      (await postForm(server.url, path(listing.slug, "/co-owners"), { email: "x@example.org", csrfToken: member.csrfToken }, { cookie: member.cookie })).status,
    ).toBe(403);

    expect((await post(session, path(listing.slug, "/agencies/withdraw"), { agencySlug: agency.slug })).status).toBe(303);
    expect((await getPage(server.url, path(listing.slug), member.cookie)).status).toBe(403);
  });
});
