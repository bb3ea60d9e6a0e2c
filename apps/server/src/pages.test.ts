import { and, asc, count, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities } from "@directory/db";
import { createDirectoryClient } from "@directory/sdk";
import { startTestServer, type TestServer } from "./testing";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { anonymousPerDay: 1_000_000, openPerMinute: 1_000_000 } });
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;
const admin = () => createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });

async function get(path: string) {
  const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Active businesses with a phone, email and website, in a category+city that has at least `others` more. */
async function pickBusinesses(howMany: number) {
  const rows = await db()
    .select({
      slug: businesses.slug,
      name: businesses.name,
      categorySlug: businesses.categorySlug,
      cityId: businesses.cityId,
      cityName: cities.name,
      country: cities.countryCode,
      phone: businesses.phone,
    })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(
      and(
        eq(businesses.status, "active"),
        isNotNull(businesses.phone),
        isNotNull(businesses.email),
        isNotNull(businesses.website),
        sql`${businesses.subscriptionExpiresAt} is null`,
      ),
    )
    .orderBy(asc(businesses.slug))
    .limit(400);
  const sizes = await db()
    .select({ categorySlug: businesses.categorySlug, cityId: businesses.cityId, n: count() })
    .from(businesses)
    .groupBy(businesses.categorySlug, businesses.cityId);
  const big = new Set(sizes.filter((s) => s.n >= 4).map((s) => `${s.categorySlug}|${s.cityId}`));
  const picked = rows.filter((row) => big.has(`${row.categorySlug}|${row.cityId}`));
  const seen = new Set<string>();
  return picked.filter((row) => !seen.has(`${row.categorySlug}|${row.cityId}`) && seen.add(`${row.categorySlug}|${row.cityId}`)).slice(0, howMany);
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
};

describe("pages", () => {
  it("every page sends the security headers: a CSP without inline script, nosniff, referrer policy, no framing", async () => {
    const [target] = await pickBusinesses(1);
    const paths = [
      "/",
      `/business/${target!.slug}`,
      `/browse?category=${target!.categorySlug}&city=${encodeURIComponent(`${target!.cityName}, ${target!.country}`)}`,
      "/search?q=dentist",
      "/search",
      "/business/no-such-business-here",
      "/browse?category=nothing-like-this&city=Mumbai",
      "/browse",
      "/robots.txt",
      "/sitemap.xml",
    ];
    for (const path of paths) {
      const { status, headers } = await get(path);
      expect(status, path).toBeLessThan(500);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers.get(name), `${path} ${name}`).toBe(value);
      const csp = headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(csp, path).toMatch(/default-src 'none'/);
      // Scripts only from our own files: no inline script, no eval, no other origin.
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    }
    const home = await get("/");
    expect(home.text).not.toMatch(/<style|style=/);
    // Every script element is data (JSON-LD) or a file of ours: nothing inline runs.
    for (const script of home.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/type="application\/ld\+json"/.test(script[1]!)) continue;
      expect(script[1]).toMatch(/ src="\/assets\/[\w.-]+\.js\?v=[0-9a-f]{12}"/);
      expect(script[2]).toBe("");
    }
    const stylesheet = home.text.match(/<link rel="stylesheet" href="([^"]+)"/)?.[1];
    expect(stylesheet).toMatch(/^\/assets\/site\.css\?v=[0-9a-f]{12}$/);
    const css = await get(stylesheet!);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(css.headers.get("cache-control")).toMatch(/max-age=31536000/);
  });

  it("the home page explains the directory, has labelled search forms, popular categories and cities, and links for agents", async () => {
    const { status, text } = await get("/");
    expect(status).toBe(200);
    for (const landmark of ["<header", "<nav", "<main", "<footer"]) expect(text).toContain(landmark);
    expect(text).toMatch(/<form[^>]+action="\/browse"/);
    expect(text).toMatch(/<form[^>]+action="\/search"/);
    for (const id of ["f-category", "f-city", "f-q"]) expect(text).toMatch(new RegExp(`<label for="${id}">`));
    expect(text).toMatch(/id="popular-categories"/);
    expect(text).toMatch(/href="\/browse\?category=[^"]+&amp;city=[^"]+"/);
    for (const href of ["/docs", "/api/openapi.json", "/mcp", "/llms.txt"]) expect(text).toContain(`href="${href}"`);
    expect(text).toContain('<link rel="canonical" href="http://directory.test/">');
  });

  it("a profile has real contact links, the claims with values and sources, offers, questions, a browse link, canonical, description and OpenGraph", async () => {
    const [target] = await pickBusinesses(1);
    const { status, text } = await get(`/business/${target!.slug}`);
    expect(status).toBe(200);
    const tel = text.match(/href="(tel:[^"]+)"/)?.[1];
    expect(tel).toMatch(/^tel:\+\d{6,15}$/);
    expect(tel).toBe(`tel:${target!.phone!.replace(/[^\d+]/g, "")}`);
    expect(text).toMatch(/href="mailto:[^"@]+@[^"]+"/);
    expect(text).toMatch(/<a href="https?:\/\/[^"]+" rel="nofollow noopener">/);
    expect(text).toMatch(/<table class="claims">/);
    expect(text).toMatch(/<td class="value" data-label="Value">[^<]+<\/td><td data-label="Source">[^<]+<\/td>/);
    for (const anchor of ["contact", "location", "hours", "offers", "questions", "claims"]) expect(text).toContain(`id="${anchor}"`);
    expect(text).toContain(`href="/browse?category=${target!.categorySlug}&amp;city=`);
    expect(text).toContain(`<link rel="canonical" href="http://directory.test/business/${target!.slug}">`);
    expect(text).toMatch(/<meta name="description" content="[^"]+">/);
    expect(text).toMatch(/<meta property="og:title" content="[^"]+">/);
    expect(text).toContain(`<meta property="og:url" content="http://directory.test/business/${target!.slug}">`);
    expect(text).toContain('<script type="application/ld+json">');
    expect(text).not.toMatch(/geoScore|visibilityScore/);
  });

  it("an unknown slug is a 404 page with the search form and popular categories", async () => {
    const { status, text, headers } = await get("/business/no-such-business-here");
    expect(status).toBe(404);
    expect(headers.get("content-type")).toMatch(/^text\/html/);
    expect(text).toMatch(/<h1>No business at this address<\/h1>/);
    expect(text).toMatch(/<form[^>]+action="\/browse"/);
    expect(text).toMatch(/id="popular-categories"/);
    expect(text).toContain('<meta name="robots" content="noindex">');
  });

  it("a decommissioned business is a 410 page offering others of its category in its city", async () => {
    const [, target] = await pickBusinesses(2);
    await admin().lifecycle.decommission.mutate({ slug: target!.slug });
    try {
      const { status, text } = await get(`/business/${target!.slug}`);
      expect(status).toBe(410);
      expect(text).toMatch(/<h1>This business is no longer listed<\/h1>/);
      expect(text).toContain(`in ${target!.cityName}</h2>`);
      const links = [...text.matchAll(/<li><a href="\/business\/([^"]+)">/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(0);
      expect(links).not.toContain(target!.slug);
      const others = await db()
        .select({ slug: businesses.slug, categorySlug: businesses.categorySlug, cityId: businesses.cityId })
        .from(businesses)
        .where(sql`${businesses.slug} in ${links}`);
      expect(others).toHaveLength(links.length);
      for (const other of others) expect(other).toMatchObject({ categorySlug: target!.categorySlug, cityId: target!.cityId });
      expect(text).toContain(`href="/browse?category=${target!.categorySlug}&amp;city=`);
      expect(text).not.toContain(target!.name.replace(/&/g, "&amp;"));
    } finally {
      await admin().lifecycle.reactivate.mutate({ slug: target!.slug });
    }
  });

  it("escapes everything: a business named with a script tag shows as text, in the page and in the JSON-LD", async () => {
    const [, , target] = await pickBusinesses(3);
    const evil = `Evil <script>alert(1)</script> "Dental" & Co`;
    await admin().lifecycle.rename.mutate({ slug: target!.slug, name: evil });
    const profile = await admin().entities.getEntityProfile.query({ slug: target!.slug });
    const { status, text } = await get(`/business/${profile.identity.slug}`);
    expect(status).toBe(200);
    expect(text).not.toContain("<script>alert(1)");
    expect(text).toContain("Evil &lt;script&gt;alert(1)&lt;/script&gt; &quot;Dental&quot; &amp; Co");
    const jsonLd = text.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)?.[1] ?? "";
    expect(jsonLd).toContain("\\u003cscript>alert(1)\\u003c/script>");
    expect(JSON.parse(jsonLd).name).toBe(evil);
    const browse = await get(`/browse?category=${target!.categorySlug}&city=${encodeURIComponent(`${target!.cityName}, ${target!.country}`)}&page=1`);
    expect(browse.text).not.toContain("<script>alert(1)");
    const search = await get(`/search?q=${encodeURIComponent("<script>alert(2)</script>")}`);
    expect(search.text).not.toContain("<script>alert(2)");
    expect(search.text).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });

  it("browse labels paid placement, discloses the ranking, pages without overlap, and answers bad input with 400/404 pages", async () => {
    const dentists = await get("/browse?category=dentist&city=Mumbai");
    expect(dentists.status).toBe(200);
    expect(dentists.text).toMatch(/id="ranking"/);
    expect(dentists.text).toMatch(/Premium \(paid placement\)|Pro \(paid placement\)|Basic \(paid placement\)|Free listing/);
    const slugsOf = (html: string) => [...html.matchAll(/<li><a href="\/business\/([^"]+)">/g)].map((m) => m[1]!);
    const nextOf = (html: string) => html.match(/<a rel="next" href="([^"]+)">/)?.[1]?.replace(/&amp;/g, "&");
    const totalMatches = Number(dentists.text.match(/ · (\d+) businesses, showing/)?.[1]);
    expect(totalMatches).toBeGreaterThan(10);
    expect(slugsOf(dentists.text)).toHaveLength(10);
    // Every page by its next link, to the end: each business once, as many as the total says.
    const walked = [...slugsOf(dentists.text)];
    let next = nextOf(dentists.text);
    let pageNo = 1;
    while (next) {
      pageNo += 1;
      expect(next).toMatch(new RegExp(`cursor=[^&]+&page=${pageNo}$`));
      const page = await get(next);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<meta name="robots" content="noindex">');
      expect(page.text).toContain(`<span aria-current="page">Page ${pageNo} of ${Math.ceil(totalMatches / 10)}</span>`);
      walked.push(...slugsOf(page.text));
      next = nextOf(page.text);
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toHaveLength(totalMatches);
    expect((await get("/browse?category=dentist&city=Mumbai&page=2")).status).toBe(400);
    const forged = await get("/browse?category=dentist&city=Mumbai&page=2&cursor=not-a-cursor");
    expect(forged.status).toBe(400);
    expect(forged.text).toMatch(/<form[^>]+action="\/browse"/);

    const missing = await get("/browse?category=dentist");
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/<form[^>]+action="\/browse"/);
    expect((await get("/browse?category=dentist&city=Mumbai&page=abc")).status).toBe(400);
    const unknown = await get("/browse?category=unicorn-groomers&city=Mumbai");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("Unknown category");
    expect(unknown.text).toMatch(/id="popular-categories"/);
    expect((await get("/browse?category=dentist&city=Atlantis-under-the-sea")).status).toBe(404);
    expect((await get("/browse?category=dentist&city=Mumbai&category=x")).status).toBeLessThan(500);
  });

  it("keyword search renders results from search.searchKeyword", async () => {
    const { status, text } = await get("/search?q=dentist&city=Mumbai");
    expect(status).toBe(200);
    expect(text).toMatch(/<h1>Results for “dentist” in Mumbai<\/h1>/);
    expect(text).toMatch(/<li><a href="\/business\//);
    expect((await get("/search?q=a")).status).toBe(400);
  });

  it("robots.txt allows pages, keeps crawlers off the API and points at the sitemap", async () => {
    const { status, headers, text } = await get("/robots.txt");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/plain/);
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Allow: \/$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toMatch(/^Sitemap: http:\/\/directory\.test\/sitemap\.xml$/m);
  });

  it("the sitemap index lists bounded pages that together hold every public profile once", async () => {
    const index = await get("/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(index.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    const locs = [...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(locs[0]).toBe("http://directory.test/sitemaps/site.xml");
    const profilePages = locs.slice(1);
    expect(profilePages.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const loc of profilePages) {
      const url = new URL(loc);
      expect(url.origin).toBe("http://directory.test");
      const page = await get(`${url.pathname}${url.search}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^application\/xml/);
      expect(Buffer.byteLength(page.text)).toBeLessThan(50 * 1024 * 1024);
      const urls = [...page.text.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>[^<]+<\/lastmod><\/url>/g)].map((m) => m[1]!);
      expect(urls.length).toBeLessThanOrEqual(10_000);
      for (const profile of urls) {
        expect(profile).toMatch(/^http:\/\/directory\.test\/business\/[^/]+$/);
        seen.add(profile);
      }
    }
    const [{ servable }] = (await db()
      .select({ servable: count() })
      .from(businesses)
      .where(sql`${businesses.status} = 'active' and (${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`)) as [
      { servable: number },
    ];
    expect(seen.size).toBe(Number(servable));
    expect((await get("/sitemaps/profiles.xml")).status).toBe(400);
  });
});
