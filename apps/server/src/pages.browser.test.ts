import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createDirectoryClient } from "@directory/sdk";
import { CHROMIUM, horizontalOverflow, launchChromium, seriousAxeViolations, warnOrFailWithoutChromium } from "./browser-fixtures";
import type { TEntityProfile, TLookupBusinessesOutput } from "@directory/api/schemas";
import { getJson, startTestServer, type TestServer } from "./testing";

/**
 * The pages in a real browser (Debian's chromium driven by playwright-core): search, profile,
 * paging, the 410 page, JSON-LD against the API, screenshots at desktop and phone widths, and
 * axe-core with no serious or critical violation. Skips, saying so, only when no chromium exists.
 */
const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

warnOrFailWithoutChromium("pages.browser.test.ts");

describe.skipIf(!CHROMIUM)("pages in a browser (chromium)", () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  /** With bypassCSP only so axe can be injected; the pages themselves run under their CSP in `context`. */
  let axeContext: BrowserContext;
  const cspViolations: string[] = [];
  const axeSummary: Record<string, Record<string, number>> = {};

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer({ rateLimits: { anonymousPerDay: 1_000_000, openPerMinute: 1_000_000 } });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    axeContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  });
  afterAll(async () => {
    writeFileSync(`${ARTIFACTS}axe-summary.json`, `${JSON.stringify(axeSummary, null, 2)}\n`);
    await browser?.close();
    await server?.close();
  });

  async function screenshots(page: Page, name: string): Promise<void> {
    for (const [label, width] of [
      ["desktop", 1280],
      ["phone", 412],
    ] as const) {
      await page.setViewportSize({ width, height: label === "phone" ? 915 : 900 });
      const overflow = await horizontalOverflow(page);
      expect(overflow, `${name} at ${width}px is cut off horizontally`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${ARTIFACTS}${name}-${label}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function expectAccessible(path: string, name: string, status: number): Promise<void> {
    const page = await axeContext.newPage();
    try {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(status);
      expect(await seriousAxeViolations(page, axeSummary, name), `${name} (${path})`).toEqual([]);
    } finally {
      await page.close();
    }
  }

  const slugsOn = (page: Page) =>
    page.$$eval("ol.results a[href^='/business/']", (links) => links.map((a) => a.getAttribute("href")!.slice("/business/".length)));

  it("searches from the home page, opens a profile, pages through browse and reads the JSON-LD", { timeout: 180_000 }, async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await screenshots(page, "home");
    await page.getByLabel("Category", { exact: true }).fill("dentist");
    await page.getByLabel("City", { exact: true }).fill("Mumbai");
    await Promise.all([page.waitForURL(/\/browse\?/), page.getByRole("button", { name: "Search", exact: true }).click()]);
    expect(new URL(page.url()).searchParams.get("category")).toBe("dentist");
    await expect(page.locator("h1").textContent()).resolves.toMatch(/Dentists? in Mumbai/i);
    await expect(page.locator("#ranking").count()).resolves.toBe(1);
    await expect(page.locator(".tier").first().textContent()).resolves.toMatch(/\(paid placement\)|Free listing/);
    await screenshots(page, "browse");

    const first = await slugsOn(page);
    expect(first).toHaveLength(10);
    await Promise.all([page.waitForURL(/page=2/), page.locator("a[rel=next]").click()]);
    const second = await slugsOn(page);
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((slug) => first.includes(slug))).toEqual([]);
    expect(new Set(second).size).toBe(second.length);
    await Promise.all([page.waitForURL(/\/browse\?(?!.*page=)/), page.locator("a[rel=prev]").click()]);
    expect(await slugsOn(page)).toEqual(first);

    const slug = first[0]!;
    await Promise.all([page.waitForURL(`**/business/${slug}`), page.locator(`ol.results a[href="/business/${slug}"]`).click()]);
    const tel = await page.locator("a[href^='tel:']").first().getAttribute("href");
    expect(tel).toMatch(/^tel:\+[1-9]\d{5,14}$/);
    const api = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${encodeURIComponent(slug)}`);
    expect(api.status).toBe(200);
    expect(tel).toBe(`tel:${api.body.contact.phone!.replace(/[^\d+]/g, "")}`);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "null");
    expect(jsonLd).toEqual(api.body.structuredData);
    await expect(page.locator("link[rel=canonical]").getAttribute("href")).resolves.toBe(`http://directory.test/business/${slug}`);
    const website = page.locator("#contact ~ ul.actions a[rel~=nofollow]");
    if ((await website.count()) > 0) await expect(website.first().getAttribute("rel")).resolves.toBe("nofollow noopener");
    await screenshots(page, "profile");
    // The claims table stacks into labelled rows on a phone.
    await page.setViewportSize({ width: 412, height: 915 });
    await expect(page.evaluate("getComputedStyle(document.querySelector('table.claims td')).display")).resolves.toBe("block");
    await page.close();
    expect(cspViolations).toEqual([]);
  });

  it("shows the 410 page with alternatives in the same category and city", { timeout: 120_000 }, async () => {
    const search = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=Mumbai&limit=5");
    const target = search.body.businesses[4]!;
    const admin = createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });
    await admin.lifecycle.decommission.mutate({ slug: target.slug });
    const page = await context.newPage();
    const response = await page.goto(`${server.url}/business/${target.slug}`);
    expect(response?.status()).toBe(410);
    await expect(page.locator("h1").textContent()).resolves.toBe("This business is no longer listed");
    const alternatives = await page.$$eval("#alternatives + ul.results a", (links) => links.map((a) => a.getAttribute("href")));
    expect(alternatives.length).toBeGreaterThan(0);
    expect(alternatives).not.toContain(`/business/${target.slug}`);
    await screenshots(page, "gone-410");
    await Promise.all([page.waitForURL(/\/business\//), page.locator("#alternatives + ul.results a").first().click()]);
    await expect(page.locator("h1").count()).resolves.toBe(1);
    await page.close();
    await expectAccessible(`/business/${target.slug}`, "410", 410);
  });

  it(
    "near me: the location button fills lat,lng from geolocation under the CSP, and with script off the typed field does the same",
    { timeout: 180_000 },
    async () => {
      const search = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=Mumbai&limit=1");
      const profile = await getJson<TEntityProfile & { contact: { latitude: number; longitude: number } }>(
        server.url,
        `/api/v2/entity-profile?slug=${search.body.businesses[0]!.slug}`,
      );
      const { latitude, longitude } = profile.body.contact;
      const located = await browser.newContext({ viewport: { width: 1280, height: 900 }, geolocation: { latitude, longitude }, permissions: ["geolocation"] });
      const violations: string[] = [];
      located.on("console", (message) => {
        if (/Content Security Policy|Permissions policy/i.test(message.text())) violations.push(message.text());
      });
      try {
        const page = await located.newPage();
        await page.goto(`${server.url}/`);
        const button = page.getByRole("button", { name: "Use my location" });
        await expect(button.isVisible()).resolves.toBe(true);
        await button.click();
        await page.waitForFunction("document.getElementById('f-near').value !== ''");
        const near = await page.getByLabel("Near (latitude,longitude)").inputValue();
        expect(near).toBe(`${latitude.toFixed(5)},${longitude.toFixed(5)}`);
        await expect(page.locator("#f-near-status").textContent()).resolves.toBe("Your location is filled in.");
        await Promise.all([page.waitForURL(/\/browse\?/), page.getByRole("button", { name: "Search", exact: true }).click()]);
        expect(new URL(page.url()).searchParams.get("near")).toBe(near);
        await expect(page.locator("h1").textContent()).resolves.toBe(`Businesses near ${near}`);
        await expect(page.locator("ol.results li").first().textContent()).resolves.toMatch(/\d+(\.\d)? k?m away/);
        await screenshots(page, "browse-near");
        await page.close();
      } finally {
        await located.close();
      }
      expect(violations).toEqual([]);

      const noScript = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
      try {
        const page = await noScript.newPage();
        await page.goto(`${server.url}/`);
        await expect(page.getByRole("button", { name: "Use my location" }).isVisible()).resolves.toBe(false);
        await page.getByLabel("Near (latitude,longitude)").fill(`${latitude},${longitude}`);
        await page.getByLabel("Open now").check();
        await Promise.all([page.waitForURL(/\/browse\?/), page.getByRole("button", { name: "Search", exact: true }).click()]);
        const params = new URL(page.url()).searchParams;
        expect(params.get("near")).toBe(`${latitude},${longitude}`);
        expect(params.get("openNow")).toBe("true");
        await expect(page.locator("h1").textContent()).resolves.toBe(`Open now: Businesses near ${latitude},${longitude}`);
        await page.close();
      } finally {
        await noScript.close();
      }
    },
  );

  it("the profile's facts table breaks no word at 1280 px, and today's hours are marked in words", { timeout: 120_000 }, async () => {
    const search = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=Mumbai&limit=3");
    const page = await context.newPage();
    for (const listing of search.body.businesses) {
      await page.goto(`${server.url}/business/${listing.slug}`);
      // A word split over two lines has two client rects; the Value column may break a long address (a URL) but no word of 20 letters or fewer.
      const broken = await page.evaluate<string[]>(`(() => {
        const broken = [];
        for (const cell of document.querySelectorAll("table.claims tbody th, table.claims tbody td")) {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const match of node.textContent.matchAll(/\\S+/g)) {
              if (cell.classList.contains("value") && (match[0].length > 20 || /[-/@.]/.test(match[0]))) continue;
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              if (lines.size > 1) broken.push(cell.getAttribute("data-label") + ": " + match[0]);
            }
          }
        }
        return broken;
      })()`);
      expect(broken, listing.slug).toEqual([]);
    }
    const today = page.locator("table.hours tr[aria-current=date]");
    if ((await page.locator("table.hours").count()) > 0) {
      await expect(today.count()).resolves.toBe(1);
      await expect(today.locator("th").textContent()).resolves.toMatch(/^\w+day \(today\)$/);
    }
    await page.close();
    expect(cspViolations).toEqual([]);
  });

  it("has no serious or critical axe-core violations on the home, profile, browse, search and 404 pages", { timeout: 180_000 }, async () => {
    const search = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=Mumbai&limit=1");
    await expectAccessible("/", "home", 200);
    await expectAccessible(`/business/${search.body.businesses[0]!.slug}`, "profile", 200);
    await expectAccessible("/browse?category=dentist&city=Mumbai", "browse", 200);
    await expectAccessible("/search?q=dentist", "search", 200);
    await expectAccessible("/business/no-such-business-anywhere", "404", 404);
    await expectAccessible("/browse?category=dentist", "browse-400", 400);
    await expectAccessible("/browse?category=dentist&city=Mumbai&openNow=true", "browse-open-now", 200);
    await expectAccessible("/mcp", "mcp", 200);
    await expectAccessible("/no-such-page", "html-404", 404);
    const page = await context.newPage();
    await page.goto(`${server.url}/business/no-such-business-anywhere`);
    await screenshots(page, "not-found-404");
    // Keyboard: the skip link comes first and is visible when focused.
    await page.keyboard.press("Tab");
    await expect(page.evaluate("document.activeElement.textContent")).resolves.toBe("Skip to content");
    await expect(page.evaluate("getComputedStyle(document.activeElement).outlineStyle")).resolves.not.toBe("none");
    await page.close();
  });
});
