import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, parseCitationEngines, runDueChecks, type CitationEngine, type CitationSettings } from "@directory/api";
import { standInSettings, startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
import { rowsOf } from "@directory/db";
import { startEngineStandIn, type EngineStandIn } from "../../../packages/api/src/services/citations/engine-stand-in";
import { getPage, postForm, signInThroughPages, type PageSession } from "./account-pages-fixtures";
import { escapeHtml } from "./html";
import { listingsWithCitations, makeOwner, type ManagedListing } from "./owner-dashboard-fixtures";
import { startTestServer, type TestServer } from "./testing";

/**
 * The owner dashboard's AI engines section with an engine configured (a loopback stand-in): each
 * engine's summary, weeks and recent checks, and the recheck form, which posts with the page's
 * CSRF token to owner.requestCitationRecheck; the worker's runDueChecks answers the check and the
 * page shows it. Once a day; a stranger's session or key cannot recheck another's listing.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let standIn: EngineStandIn;
let engines: CitationEngine[];
let nextListing: () => Promise<ManagedListing>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  standIn = await startEngineStandIn();
  engines = parseCitationEngines(`compatible:dashboard-model@${standIn.baseURL}`);
  server = await startTestServer({
    smtpUrl: smtp.url,
    citationEngines: engines,
    rateLimits: { signInMailsPerClientPerHour: 1000, openPerMinute: 10_000, anonymousPerDay: 1_000_000 },
  });
  nextListing = listingsWithCitations(server);
});

afterAll(async () => {
  await server?.close();
  await standIn?.close();
  await smtp?.close();
});

const path = (slug: string, step = "") => `/dashboard/business/${slug}${step}`;
let people = 0;

const pairsTaken = new Set<string>();

/** A listing of a pair no other test took: a pair's recheck of the day is shared by its businesses. */
async function listingOfFreshPair(): Promise<ManagedListing> {
  for (;;) {
    const listing = await nextListing();
    const [pair] = rowsOf<{ pair: string }>(
      await server.database.db.execute(sql`select city_id || '/' || category_slug as pair from businesses where id = ${listing.id}`),
    );
    if (!pairsTaken.has(pair!.pair)) {
      pairsTaken.add(pair!.pair);
      return listing;
    }
  }
}

async function owner(): Promise<{ session: PageSession; listing: ManagedListing }> {
  people += 1;
  const email = `engines-owner-${people}@example.org`;
  const session = await signInThroughPages(server.url, smtp, email);
  const listing = await listingOfFreshPair();
  await makeOwner(server, email, listing.id);
  return { session, listing };
}

const recheck = (session: PageSession, slug: string, csrfToken = session.csrfToken) =>
  postForm(server.url, path(slug, "/citations/recheck"), { csrfToken }, { cookie: session.cookie });

async function ownerRechecks(slug: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await server.database.db.execute(sql`
      select count(*)::int as n from citation_checks c join businesses b on b.city_id = c.city_id and b.category_slug = c.category_slug
      where b.slug = ${slug} and c.trigger = 'owner'`),
  );
  return Number(row!.n);
}

function settings(): CitationSettings {
  return standInSettings(engines, { concurrency: 1 });
}

describe("the AI engines section", () => {
  it("names the engine, offers the recheck with the page's CSRF token, and states the method", async () => {
    const { session, listing } = await owner();
    const page = await getPage(server.url, path(listing.slug), session.cookie);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2 id="engines">AI engines</h2>');
    expect(page.body).toContain("This service asks compatible:dashboard-model each day");
    expect(page.body).not.toContain('id="no-engine"');
    const form = new RegExp(
      `<form class="inline-form" method="post" action="/dashboard/business/${listing.slug}/citations/recheck"><input type="hidden" name="csrfToken" value="${session.csrfToken}"><button type="submit">Recheck now</button></form>`,
    );
    expect(page.body).toMatch(form);
    expect(page.body).toContain("How the checks are made and scored");
    // The demo world's answers are dated by its own calendar: per engine if any is in the period, or a sentence saying none is.
    expect(page.body).toMatch(/<article class="engine" aria-labelledby="engine-[\w-]+"><h3 id="engine-[\w-]+">|<p>No check from /);
  });

  it("queues a recheck that the worker answers: the page shows the engine's new check; a second the same day is refused with 429", async () => {
    const { session, listing } = await owner();
    const posted = await recheck(session, listing.slug);
    expect(posted.status, posted.body.slice(0, 300)).toBe(303);
    expect(posted.headers.get("location")).toBe(`${path(listing.slug)}?done=rechecked#engines`);
    expect(await ownerRechecks(listing.slug)).toBe(1);

    standIn.queue({
      answer: `Ask ${listing.name}, people say good things.`,
      citations: ["https://guide.example/dentists", "https://reviews.example/top", "https://maps.example/a", "https://news.example/b"],
    });
    const run = await runDueChecks(server.database.db, { settings: settings() });
    expect(run.checks.map((check) => check.status)).toEqual(["done"]);
    const question = standIn.requests.at(-1)!.question;

    const page = await getPage(server.url, `${path(listing.slug)}?done=rechecked`, session.cookie);
    expect(page.body).toContain("The recheck is queued");
    expect(page.body).toContain('<h3 id="engine-compatible-dashboard-model">compatible (dashboard-model)</h3>');
    expect(page.body).toContain(`<tr><td>${escapeHtml(question)}</td>`);
    // The sources the engine cited, by their site, the first three linked and the rest counted.
    expect(page.body).toContain(
      '<a href="https://guide.example/dentists" rel="nofollow noopener noreferrer">guide.example</a>, <a href="https://reviews.example/top" rel="nofollow noopener noreferrer">reviews.example</a>, <a href="https://maps.example/a" rel="nofollow noopener noreferrer">maps.example</a> and 1 more',
    );
    expect(page.body).toMatch(/<strong>100%<\/strong>: 1 of 1 checks/);

    const again = await recheck(session, listing.slug);
    expect(again.status).toBe(429);
    expect(again.body).toContain("No recheck was queued: This business already asked for a recheck today (UTC); it may ask again at");
    expect(await ownerRechecks(listing.slug)).toBe(1);
  });

  it("refuses a recheck without the session's CSRF token, and queues nothing", async () => {
    const { session, listing } = await owner();
    const forged = await recheck(session, listing.slug, "not-the-token");
    expect(forged.status).toBe(403);
    expect(await ownerRechecks(listing.slug)).toBe(0);
  });
});

describe("across two accounts", () => {
  it("a stranger's session and another business's key cannot recheck the listing (403); the owner's own key can, over REST", async () => {
    const victim = await owner();
    const stranger = await owner();
    const forged = await recheck(stranger.session, victim.listing.slug);
    expect(forged.status).toBe(403);

    const strangerKey = (await createApiKey(server.database.db, { kind: "business", businessSlug: stranger.listing.slug })).key;
    const post = (key: string, body: unknown) =>
      fetch(`${server.url}/api/v2/owner/citations/recheck`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const named = await post(strangerKey, { slug: victim.listing.slug });
    expect(named.status).toBe(403);
    expect(await named.json()).toMatchObject({ code: "FORBIDDEN" });
    expect(await ownerRechecks(victim.listing.slug)).toBe(0);

    const own = await post(strangerKey, {});
    expect(own.status).toBe(202);
    expect(await own.json()).toMatchObject({ checks: [{ engine: "compatible", model: "dashboard-model", status: "queued" }] });
    const twice = await post(strangerKey, {});
    expect(twice.status).toBe(429);
    expect(await twice.json()).toMatchObject({ code: "RATE_LIMITED", policy: "citation-recheck" });
  });
});
