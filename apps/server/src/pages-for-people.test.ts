import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { ALL_DAYS, BROWSER_ACCEPT, fetchPage, mumbaiDentists as mumbaiDentistsOf } from "./pages-fixtures";
import type { TLookupBusinessesOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";

/**
 * The pages as a person meets them (issues 23 and 26): open now and near on browse, a profile's
 * hours in its own time zone with today marked, the facts table in words, the MCP page, the HTML
 * 404 for browsers (one profile view counting once against the daily limit: page-view-limit.test.ts).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { anonymousPerDay: 1_000_000, openPerMinute: 1_000_000 } });
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;
async function get(path: string, headers: Record<string, string> = {}) {
  return fetchPage(`${server.url}${path}`, headers);
}

const slugsOf = (html: string) => [...html.matchAll(/<li><a href="\/business\/([^"]+)">/g)].map((m) => decodeURIComponent(m[1]!));
const unescape = (html: string) => html.replace(/&amp;/g, "&");
const mumbaiDentists = () => mumbaiDentistsOf(db());

function localWeekday(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat("en-GB", { weekday: "long", timeZone }).format(at);
}

describe("browse: open now and near a point (issue 23)", () => {
  it("open now keeps the open ones, says so on each, counts those left out for unknown hours, and pages keep the filter", async () => {
    const dentists = await mumbaiDentists();
    const [always, unknown] = dentists;
    await db()
      .update(businesses)
      .set({ openingHours: [{ days: ALL_DAYS, opens: "00:00", closes: "23:59" }] })
      .where(eq(businesses.id, always!.id));
    await db().update(businesses).set({ openingHours: [] }).where(eq(businesses.id, unknown!.id));

    const page = await get("/browse?category=dentist&city=Mumbai&openNow=true");
    expect(page.status).toBe(200);
    const api = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=Mumbai&openNow=true&limit=10");
    expect(api.status).toBe(200);
    expect(slugsOf(page.text)).toEqual(api.body.businesses.map((b) => b.slug));
    expect(slugsOf(page.text)).toContain(always!.slug);
    expect(slugsOf(page.text)).not.toContain(unknown!.slug);
    expect(page.text).toMatch(/<h1>Open now: Dentists? in Mumbai<\/h1>/);
    expect(page.text).toContain(`${api.body.totalMatches} ${api.body.totalMatches === 1 ? "business" : "businesses"} open now`);
    // Every listing says it is open in words; the 24/7 one says it never closes.
    const items = page.text
      .match(/<ol class="results"[^>]*>([\s\S]*?)<\/ol>/)![1]!
      .split("</li>")
      .filter((item) => item.includes("<a href"));
    for (const item of items) expect(item).toContain('<strong class="state">Open now</strong>');
    expect(items.find((item) => item.includes(`/business/${always!.slug}"`))).toContain("Open now</strong>, open 24 hours");
    expect(api.body.excludedUnknownHours).toBeGreaterThanOrEqual(1);
    const excluded = api.body.excludedUnknownHours;
    expect(page.text).toContain(
      `${excluded} ${excluded === 1 ? "business is" : "businesses are"} left out because ${excluded === 1 ? "its" : "their"} opening hours are not known.`,
    );
    // The form shows the search again, the box still ticked.
    expect(page.text).toMatch(/<input type="checkbox" id="f-open" name="openNow" value="true" checked>/);
    // An open-now listing is a narrowed view: not indexed, no canonical.
    expect(page.text).toContain('<meta name="robots" content="noindex">');
  });

  it("near a point lists the nearest first with distances, needs no category or city, and its page links keep every parameter", async () => {
    const [center] = (await mumbaiDentists()).filter((d) => d.lat !== null && d.lng !== null);
    const near = `${center!.lat!.toFixed(5)},${center!.lng!.toFixed(5)}`;
    const page = await get(`/browse?near=${encodeURIComponent(near)}&radiusKm=50`);
    expect(page.status).toBe(200);
    const api = await getJson<TLookupBusinessesOutput>(server.url, `/api/v2/businesses?near=${encodeURIComponent(near)}&radiusKm=50&sort=distance&limit=10`);
    expect(api.status).toBe(200);
    expect(api.body.totalMatches).toBeGreaterThan(10);
    expect(slugsOf(page.text)).toEqual(api.body.businesses.map((b) => b.slug));
    expect(page.text).toContain(`<h1>Businesses near ${near}</h1>`);
    const distances = [...page.text.matchAll(/ · ([\d.]+) (m|km) away/g)].map((m) => Number(m[1]) * (m[2] === "m" ? 0.001 : 1));
    expect(distances).toHaveLength(10);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances[0]).toBeLessThan(0.01);
    expect(page.text).toMatch(/id="f-near"[^>]*value="[\d.,]+"/);

    // With open now too, the next page's link carries near, radiusKm and openNow, and continues the same listing.
    await db()
      .update(businesses)
      .set({ openingHours: [{ days: ALL_DAYS, opens: "00:00", closes: "23:59" }] })
      .where(sql`${businesses.cityId} = (select city_id from businesses where slug = ${center!.slug})`);
    const first = await get(`/browse?near=${encodeURIComponent(near)}&radiusKm=50&openNow=true`);
    expect(first.status).toBe(200);
    const next = unescape(first.text.match(/<a rel="next" href="([^"]+)">/)![1]!);
    const params = new URL(next, server.url).searchParams;
    expect(params.get("near")).toBe(near);
    expect(params.get("radiusKm")).toBe("50");
    expect(params.get("openNow")).toBe("true");
    expect(params.get("page")).toBe("2");
    const second = await get(next);
    expect(second.status).toBe(200);
    expect(second.text).toMatch(/<h1>Open now: Businesses near /);
    expect(slugsOf(second.text).filter((slug) => slugsOf(first.text).includes(slug))).toEqual([]);
    const back = unescape(second.text.match(/<a rel="prev" href="([^"]+)">/)![1]!);
    expect(new URL(back, server.url).searchParams.get("openNow")).toBe("true");
  });

  it("bad where-when input is a 400 page naming the parameter, with the form filled in again", async () => {
    const outOfRange = await get("/browse?near=95,200");
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.headers.get("content-type")).toMatch(/^text\/html/);
    expect(outOfRange.text).toMatch(/near/);
    expect(outOfRange.text).toMatch(/id="f-near"[^>]*value="95,200"/);
    const radius = await get("/browse?near=19.07,72.87&radiusKm=500");
    expect(radius.status).toBe(400);
    expect(radius.text).toMatch(/radiusKm/);
    const nothing = await get("/browse?openNow=true");
    expect(nothing.status).toBe(400);
    expect(nothing.text).toMatch(/or a place to search near/);
  });

  it("the search form offers open now and near: a typed lat,lng field that works without script, and a served script for the location button", async () => {
    const home = await get("/");
    expect(home.text).toMatch(/<label for="f-near">Near \(latitude,longitude\)<\/label><input id="f-near" name="near"/);
    expect(home.text).toMatch(/<input type="checkbox" id="f-open" name="openNow" value="true"><label for="f-open">Open now<\/label>/);
    // Hidden until the script finds geolocation: with script off the button never shows.
    expect(home.text).toMatch(
      /<button type="button" class="secondary" data-near-target="f-near" data-near-status="f-near-status" hidden>Use my location<\/button>/,
    );
    expect(home.headers.get("permissions-policy")).toMatch(/geolocation=\(self\)/);
    const src = home.text.match(/<script src="(\/assets\/near-me\.js\?v=[0-9a-f]{12})" defer><\/script>/)?.[1];
    expect(src).toBeDefined();
    const script = await get(src!);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(script.headers.get("cache-control")).toMatch(/max-age=31536000/);
    expect(script.text).toContain("navigator.geolocation.getCurrentPosition");
  });
});

describe("a profile's opening hours in its local time (issue 23)", () => {
  it("shows the week with today marked in words and aria-current, and whether it is open now, in the city's zone", async () => {
    const [, , target] = await mumbaiDentists();
    const zone = target!.timeZone!;
    expect(zone).toBe("Asia/Kolkata");
    const today = localWeekday(zone);
    const others = ALL_DAYS.filter((day) => day !== today);
    // Open only on the other six days: closed now whatever the hour, and it opens tomorrow at 07:15.
    await db()
      .update(businesses)
      .set({ openingHours: [{ days: others, opens: "07:15", closes: "19:45" }] })
      .where(eq(businesses.id, target!.id));
    const { status, text } = await get(`/business/${target!.slug}`);
    expect(status).toBe(200);
    const section = text.slice(text.indexOf('<h2 id="hours">'), text.indexOf('<h2 id="services">'));
    expect(section).toContain(`<caption class="muted">Local time in Mumbai (${zone})</caption>`);
    const rows = [...section.matchAll(/<tr([^>]*)><th scope="row">([^<]+)(?:<span class="today-mark">\(today\)<\/span>)?<\/th><td>([^<]+)<\/td><\/tr>/g)];
    expect(rows.map((row) => row[2]!.trim())).toEqual(ALL_DAYS);
    for (const [, attributes, day, hours] of rows) {
      if (day!.trim() === today) {
        expect(attributes).toBe(' class="today" aria-current="date"');
        expect(hours).toBe("Closed");
      } else {
        expect(attributes).toBe("");
        expect(hours).toBe("07:15–19:45");
      }
    }
    expect(section).toContain(`${today} <span class="today-mark">(today)</span>`);
    expect(section).toContain('<p class="hours-state" role="status"><strong>Closed now</strong>, opens tomorrow 07:15 (local time)</p>');

    await db()
      .update(businesses)
      .set({ openingHours: [{ days: ALL_DAYS, opens: "00:00", closes: "23:59" }] })
      .where(eq(businesses.id, target!.id));
    const always = await get(`/business/${target!.slug}`);
    expect(always.text).toContain("<strong>Open now</strong>: open 24 hours, every day");
    // A day other than today, whose row carries no "(today)" mark.
    expect(always.text).toContain(`<th scope="row">${others[0]}</th><td>24 hours</td>`);

    await db().update(businesses).set({ openingHours: [] }).where(eq(businesses.id, target!.id));
    const unknown = await get(`/business/${target!.slug}`);
    expect(unknown.text).toContain('<h2 id="hours">Opening hours</h2><p>Not known</p>');
  });
});

describe("pages for people (issue 26)", () => {
  it("the facts table names each fact and shows each value, source and verification as words, never JSON or codes", async () => {
    const [target] = await db()
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(
        and(
          eq(businesses.status, "active"),
          isNotNull(businesses.lat),
          sql`${businesses.openingHours} <> '[]'::jsonb`,
          sql`${businesses.subscriptionExpiresAt} is null`,
        ),
      )
      .orderBy(asc(businesses.slug))
      .limit(1);
    const { text } = await get(`/business/${target!.slug}`);
    const table = text.match(/<table class="claims">[\s\S]*?<\/table>/)![0];
    const cells = [...table.matchAll(/<t[hd][^>]*data-label="(\w+)"[^>]*>([\s\S]*?)<\/t[hd]>/g)].map((m) => ({
      label: m[1]!,
      text: m[2]!.replace(/<[^>]+>/g, ""),
    }));
    expect(cells.length).toBeGreaterThan(12);
    for (const cell of cells) {
      expect(cell.text, `${cell.label}: ${cell.text}`).not.toMatch(/[{}[\]]/);
      expect(cell.text, `${cell.label}: ${cell.text}`).not.toMatch(/\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b/);
    }
    const facts = cells.filter((c) => c.label === "Fact").map((c) => c.text);
    expect(facts).toEqual(expect.arrayContaining(["Opening hours", "Map position", "Postal code", "Number of reviews"]));
    const value = (fact: string) => cells[cells.findIndex((c) => c.label === "Fact" && c.text === fact) + 1]!.text;
    expect(value("Map position")).toMatch(/^\d+\.\d{5}° [NS], \d+\.\d{5}° [EW]$/);
    expect(value("Opening hours")).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)[\w ,]* \d\d:\d\d–\d\d:\d\d/);
    expect(value("Rating")).toMatch(/^[\d.]+ out of 5$/);
    const verifications = new Set(cells.filter((c) => c.label === "Verification").map((c) => c.text));
    for (const verification of verifications) expect(["Stated by the owner", "Checked by the directory", "From a public registry"]).toContain(verification);
  });

  it("the footer's MCP server link leads to an HTML page that says how to connect", async () => {
    const home = await get("/");
    const footer = home.text.slice(home.text.indexOf("<footer"));
    const href = footer.match(/<a href="([^"]+)">MCP server<\/a>/)?.[1];
    expect(href).toBe("/mcp");
    const page = await get(href!, { accept: BROWSER_ACCEPT });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(page.text).toContain("<h1>Connect an AI agent (MCP server)</h1>");
    expect(page.text).toContain("<code>http://directory.test/api/mcp</code>");
    expect(page.text).toContain("Accept: application/json, text/event-stream");
    expect(page.text).toContain("&quot;url&quot;: &quot;http://directory.test/api/mcp&quot;");
  });

  it("an unknown address answers a browser with an HTML 404 and every JSON client with the JSON 404", async () => {
    const browser = await get("/no-such-page/anywhere", { accept: BROWSER_ACCEPT });
    expect(browser.status).toBe(404);
    expect(browser.headers.get("content-type")).toMatch(/^text\/html/);
    expect(browser.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(browser.headers.get("x-frame-options")).toBe("DENY");
    expect(browser.text).toContain("<h1>Page not found</h1>");
    expect(browser.text).toContain("<code>/no-such-page/anywhere</code>");
    expect(browser.text).toMatch(/<form[^>]+action="\/browse"/);
    expect(browser.text).toContain('<meta name="robots" content="noindex">');
    const escaped = await get(`/${encodeURIComponent("<script>x</script>")}`, { accept: BROWSER_ACCEPT });
    expect(escaped.status).toBe(404);
    expect(escaped.text).not.toContain("<script>x");

    for (const headers of [{}, { accept: "application/json" }, { accept: "*/*" }] as Record<string, string>[]) {
      const json = await getJson(server.url, "/no-such-page/anywhere", headers);
      expect(json.status).toBe(404);
      expect(json.headers.get("content-type")).toMatch(/^application\/json/);
      expect(json.body).toMatchObject({ error: expect.any(String), code: "NOT_FOUND" });
    }
    // The API's own namespaces and its REST routes stay JSON even for a browser.
    for (const path of ["/api/v2/no-such-route", "/business/no-such-business-here/agent.json"]) {
      const api = await getJson<ErrorBody>(server.url, path, { accept: BROWSER_ACCEPT });
      expect(api.status, path).toBe(404);
      expect(api.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(api.body.code, path).toBe("NOT_FOUND");
    }
    const post = await fetch(`${server.url}/no-such-page`, {
      method: "POST",
      headers: { accept: BROWSER_ACCEPT, "content-type": "application/json" },
      body: "{}",
    });
    expect(post.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
