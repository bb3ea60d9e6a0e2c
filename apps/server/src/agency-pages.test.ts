import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agencies, agencyMembers } from "@directory/db";
import { startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
import { sessionHeaders, trpcCall, trpcData } from "./account-http-fixtures";
import { getPage, OWN_ORIGIN, postForm, signInThroughPages, type PageSession } from "./account-pages-fixtures";
import { addListing, buttonsNamed, codeInMail, startLoopbackSite, wrongCode } from "./claim-pages-fixtures";
import { startTestServer, type TestServer } from "./testing";

/**
 * The agency pages over plain HTTP, as a browser without JavaScript uses them: a person creates an
 * agency from the dashboard, invites a member, grants it a listing they own; the member sees it;
 * a stranger gets 404, a member on an owner's action 403, a forged form 403, and nothing changes.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let owner: PageSession;
let member: PageSession;
let stranger: PageSession;
let agencySlug = "";

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, rateLimits: { signInMailsPerClientPerHour: 1000, openPerMinute: 10_000, anonymousPerDay: 1_000_000 } });
  owner = await signInThroughPages(server.url, smtp, "agency-owner@example.org");
  member = await signInThroughPages(server.url, smtp, "agency-member@example.org");
  stranger = await signInThroughPages(server.url, smtp, "agency-stranger@example.org");
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const agencyPage = (step = "") => `/dashboard/agency/${agencySlug}${step}`;
const post = (session: PageSession, path: string, fields: Record<string, string> = {}) =>
  postForm(server.url, path, { csrfToken: session.csrfToken, ...fields }, { cookie: session.cookie });
const membersOf = async (slug: string) =>
  (
    await server.database.db
      .select({ accountId: agencyMembers.accountId, role: agencyMembers.role, removedAt: agencyMembers.removedAt })
      .from(agencyMembers)
      .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
      .where(eq(agencies.slug, slug))
  ).filter((row) => row.removedAt === null).length;

/** A listing the person owns, claimed through the claim pages with the code mailed to the listing. */
async function ownedListing(session: PageSession, name: string, email: string): Promise<{ slug: string }> {
  const listing = await addListing(server, { name, email });
  expect((await post(session, `/business/${listing.slug}/claim/email`)).status).toBe(200);
  const code = codeInMail((await smtp.nextMail(email)).text);
  expect((await post(session, `/business/${listing.slug}/claim/email/verify`, { code })).status).toBe(303);
  return listing;
}

describe("the agency pages", () => {
  it("sends a signed-out visitor to /sign-in and refuses a signed-out form with 401", async () => {
    const page = await getPage(server.url, "/dashboard/agency/anything");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/sign-in");
    expect((await postForm(server.url, "/dashboard/agencies", { name: "Nobody's Agency" })).status).toBe(401);
    expect(await server.database.db.select().from(agencies).where(eq(agencies.name, "Nobody's Agency"))).toEqual([]);
  });

  it("creates an agency from the dashboard, which then lists it, and opens its page to its owner", async () => {
    const dashboard = await getPage(server.url, "/dashboard", owner.cookie);
    expect(dashboard.body).toMatch(/<label for="agency-name">Agency name<\/label><input id="agency-name" name="name"/);
    expect(buttonsNamed(dashboard.body, "Create agency")).toBe(1);

    const created = await post(owner, "/dashboard/agencies", { name: "Harbour & Co Agency" });
    expect(created.status).toBe(303);
    agencySlug = /^\/dashboard\/agency\/([a-z0-9-]+)$/.exec(created.headers.get("location") ?? "")?.[1] ?? "";
    expect(agencySlug).not.toBe("");
    expect((await getPage(server.url, "/dashboard", owner.cookie)).body).toContain(`<a href="/dashboard/agency/${agencySlug}">Harbour &amp; Co Agency</a>`);

    const page = await getPage(server.url, agencyPage(), owner.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body).toContain("<h1>Harbour &amp; Co Agency</h1>");
    expect(page.body).toMatch(/<label for="invite-email">Email<\/label><input id="invite-email" name="email" type="email"/);
    expect(page.body).toContain('<option value="owner">');
    expect(buttonsNamed(page.body, "Invite")).toBe(1);
    expect(buttonsNamed(page.body, "Create key")).toBe(1);
    // No payment provider on this server: no checkout button, as on the developer page.
    expect(page.body).not.toContain("Buy the developer plan");
  });

  it("invites a member, who sees the businesses the agency was granted and opens their dashboards", async () => {
    const refused = await post(owner, agencyPage("/members"), { email: "not an address", role: "member" });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("Nobody was invited");
    expect(await membersOf(agencySlug)).toBe(1);

    const invited = await post(owner, agencyPage("/members"), { email: "agency-member@example.org", role: "member" });
    expect(invited.status).toBe(303);
    expect(invited.headers.get("location")).toBe(`${agencyPage()}?invited=1#agency-members`);
    expect((await smtp.nextMail("agency-member@example.org")).text).toContain(`/dashboard/agency/${agencySlug}`);

    const listing = await ownedListing(owner, "Granted Dental", "desk@granted.example");
    const grant = await trpcCall(
      server.url,
      "owner.agencies.grant",
      "mutation",
      { slug: listing.slug, agencySlug },
      { ...sessionHeaders(owner), origin: OWN_ORIGIN },
    );
    await trpcData(grant);

    const page = await getPage(server.url, agencyPage(), member.cookie);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<a href="/dashboard/business/${listing.slug}">Granted Dental</a>`);
    expect(page.body).toContain("Owner-verified");
    expect(page.body).toContain("agency-owner@example.org");
    // A member manages the businesses, not the agency: no owner's forms.
    expect(buttonsNamed(page.body, "Invite")).toBe(0);
    expect(buttonsNamed(page.body, "Create key")).toBe(0);
    expect((await getPage(server.url, "/dashboard", member.cookie)).body).toContain(`<a href="/dashboard/agency/${agencySlug}">`);
  });

  it("answers 404 to a stranger, 403 to a member on an owner's action, and changes nothing", async () => {
    expect((await getPage(server.url, agencyPage(), stranger.cookie)).status).toBe(404);
    expect((await post(stranger, agencyPage("/members"), { email: "agency-stranger@example.org", role: "owner" })).status).toBe(404);
    expect((await post(stranger, agencyPage("/keys"), { label: "mine now" })).status).toBe(404);
    expect((await getPage(server.url, "/dashboard/agency/no-such-agency-zz", owner.cookie)).status).toBe(404);

    const asMember = await post(member, agencyPage("/members"), { email: "agency-stranger@example.org", role: "owner" });
    expect(asMember.status).toBe(403);
    expect((await post(member, agencyPage("/keys"), { label: "member key" })).status).toBe(403);
    expect((await post(member, agencyPage("/members/remove"), { email: "agency-owner@example.org" })).status).toBe(403);
    expect(await membersOf(agencySlug)).toBe(2);
  });

  it("refuses forged forms: no CSRF token, or another origin", async () => {
    const noToken = await postForm(server.url, agencyPage("/members"), { email: "forged@example.org", role: "owner" }, { cookie: owner.cookie });
    expect(noToken.status).toBe(403);
    const otherOrigin = await postForm(
      server.url,
      agencyPage("/keys"),
      { label: "forged", csrfToken: owner.csrfToken },
      { cookie: owner.cookie, origin: "https://evil.example" },
    );
    expect(otherOrigin.status).toBe(403);
    expect(await membersOf(agencySlug)).toBe(2);
    expect((await getPage(server.url, agencyPage(), owner.cookie)).body).toContain("The agency has no developer keys yet.");
  });

  it("lets a member claim a listing for the agency from the claim page, and refuses a stranger naming it", async () => {
    const listing = await addListing(server, { name: "Claimed For Agency Dental", email: "desk@for-agency.example" });
    const claimPage = await getPage(server.url, `/business/${listing.slug}/claim`, member.cookie);
    expect(claimPage.body).toMatch(/<label for="claim-for">Claim for<\/label><select id="claim-for" name="for"/);
    expect(claimPage.body).toContain(`<option value="${agencySlug}">Harbour &amp; Co Agency (your agency)</option>`);
    expect(claimPage.body).not.toContain('name="agencySlug"');
    const chosen = await getPage(server.url, `/business/${listing.slug}/claim?for=${agencySlug}`, member.cookie);
    expect(chosen.body).toContain(`<input type="hidden" name="agencySlug" value="${agencySlug}">`);
    expect(chosen.body).toContain(`<option value="${agencySlug}" selected>`);

    // A stranger has no agency to choose; a form naming one anyway is the procedure's 404, and no claim or mail follows.
    expect((await getPage(server.url, `/business/${listing.slug}/claim`, stranger.cookie)).body).not.toContain("Claim for");
    expect((await post(stranger, `/business/${listing.slug}/claim/email`, { agencySlug })).status).toBe(404);

    expect((await post(member, `/business/${listing.slug}/claim/email`, { agencySlug })).status).toBe(200);
    const code = codeInMail((await smtp.nextMail("desk@for-agency.example")).text);
    expect((await post(member, `/business/${listing.slug}/claim/email/verify`, { code })).status).toBe(303);
    expect((await getPage(server.url, agencyPage(), owner.cookie)).body).toContain(
      `<a href="/dashboard/business/${listing.slug}">Claimed For Agency Dental</a>`,
    );
  });

  it("keeps the agency a claim is for when a website check fails or a code is wrong: the new token or code is for it too", async () => {
    const site = await startLoopbackSite();
    try {
      const listing = await addListing(server, { name: "Kept For Agency Dental", website: site.home, email: "desk@kept-for.example" });
      const agencyField = `<input type="hidden" name="agencySlug" value="${agencySlug}">`;
      expect((await post(member, `/business/${listing.slug}/claim/website`, { agencySlug })).status).toBe(200);
      const notFound = await post(member, `/business/${listing.slug}/claim/website/verify`);
      expect(notFound.status).toBe(409);
      expect(notFound.body).toMatch(new RegExp(`claim/website">[^]*?${agencyField}<button type="submit" class="secondary">Get a new website token<`));

      expect((await post(member, `/business/${listing.slug}/claim/email`, { agencySlug })).status).toBe(200);
      const code = codeInMail((await smtp.nextMail("desk@kept-for.example")).text);
      const wrong = await post(member, `/business/${listing.slug}/claim/email/verify`, { code: wrongCode(code) });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatch(new RegExp(`claim/email">[^]*?${agencyField}<button type="submit" class="secondary">Send code<`));
    } finally {
      await site.close();
    }
  });

  it("shows a developer key once, revokes it, removes a member and keeps the last owner", async () => {
    const created = await post(owner, agencyPage("/keys"), { label: "Reporting bot" });
    expect(created.status).toBe(200);
    const key = /id="new-key-value">([^<]+)</.exec(created.body)?.[1] ?? "";
    expect(key.length).toBeGreaterThan(20);
    const again = await getPage(server.url, agencyPage(), owner.cookie);
    expect(again.body).toContain("Reporting bot");
    expect(again.body).not.toContain(key);
    const id = /keys\/revoke">.*?name="id" value="([^"]+)"/.exec(again.body)?.[1] ?? "";
    const revoked = await post(owner, agencyPage("/keys/revoke"), { id });
    expect(revoked.status).toBe(303);
    expect((await getPage(server.url, `${agencyPage()}?revoked=1`, owner.cookie)).body).toContain("The key was revoked");

    const removed = await post(owner, agencyPage("/members/remove"), { email: "agency-member@example.org" });
    expect(removed.status).toBe(303);
    expect((await getPage(server.url, agencyPage(), member.cookie)).status).toBe(404);
    const lastOwner = await post(owner, agencyPage("/members/remove"), { email: "agency-owner@example.org" });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body).toContain("at least one owner");
    expect(await membersOf(agencySlug)).toBe(1);
  });
});
