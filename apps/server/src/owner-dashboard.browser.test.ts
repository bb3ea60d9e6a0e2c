import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { TestSmtpServer } from "@directory/api/testing";
import { CHROMIUM, expectAccessibleAtEveryWidth, signInInBrowser, startBrowserWorld, warnOrFailWithoutChromium, type BrowserWorld } from "./browser-fixtures";
import { listingsWithCitations, makeOwner, publicClaims, sendLead } from "./owner-dashboard-fixtures";
import type { Api, TestServer } from "./testing";

/**
 * The owner dashboard in a real browser (chromium via playwright-core): from /dashboard to a
 * listing's dashboard, a fact edited with the form and then seen on the public page as the owner's,
 * a business key taken on the page and used by an MCP client (get_my_visibility_score), a lead moved
 * on. axe-core finds no serious or critical violation, and nothing is cut off, at 1280 and 390 px.
 * Skips only without chromium.
 */
warnOrFailWithoutChromium("owner-dashboard.browser.test.ts");

describe.skipIf(!CHROMIUM)("the owner dashboard in a browser (chromium)", () => {
  let world: BrowserWorld;
  let server: TestServer;
  let smtp: TestSmtpServer;
  let browser: Browser;

  beforeAll(async () => {
    world = await startBrowserWorld({ artifacts: "owner-dashboard" });
    ({ server, smtp, browser } = world);
  });
  afterAll(() => world?.close());

  const expectAccessible = (page: Page, name: string) => expectAccessibleAtEveryWidth(page, world.axeSummary, name, "owner-dashboard");

  async function visibilityOverMcp(key: string): Promise<Api.TVisibilityOutput> {
    const mcp = new Client({ name: "owner-dashboard-browser-test", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const result = await mcp.callTool({ name: "get_my_visibility_score", arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as Api.TVisibilityOutput;
    } finally {
      await mcp.close();
    }
  }

  it("edits a fact, takes a key for an MCP client and moves a lead, accessibly at both widths", { timeout: 240_000 }, async () => {
    const email = "browser-owner@example.org";
    const listing = await listingsWithCitations(server)();
    await sendLead(server, listing.slug, "Meera Iyer");
    // axe is injected into the page, so this context bypasses the CSP; the pages need no script of their own.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await signInInBrowser(page, server.url, smtp, email);
    const accountId = await makeOwner(server, email, listing.id);

    await page.goto(`${server.url}/dashboard`);
    const dashboardUrl = `${server.url}/dashboard/business/${listing.slug}`;
    await Promise.all([page.waitForURL(dashboardUrl), page.getByRole("link", { name: "Manage this listing" }).click()]);
    await expect(page.locator("h1").textContent()).resolves.toBe(`${listing.name}: dashboard`);
    await expect(page.getByRole("img", { name: /Citations by week/ }).count()).resolves.toBe(1);
    await expectAccessible(page, "page");

    // A fact edited with the form is on the public page, stated by the owner.
    await page.getByLabel("Tagline", { exact: true }).fill("Gentle dentistry since 1998");
    await Promise.all([page.waitForURL(`${dashboardUrl}?done=saved#facts`), page.getByRole("button", { name: "Save" }).click()]);
    await expect(page.getByRole("status").filter({ hasText: "Your changes were saved" }).count()).resolves.toBe(1);
    const visitor = await browser.newContext();
    const profile = await visitor.newPage();
    await profile.goto(`${server.url}/business/${listing.slug}`);
    await expect(profile.locator("main").textContent()).resolves.toContain("Gentle dentistry since 1998");
    const taglineRow = profile.locator("table.claims tr").filter({ has: profile.getByRole("rowheader", { name: "Tagline" }) });
    await expect(taglineRow.locator('td[data-label="Source"]').textContent()).resolves.toBe("The owner");
    await visitor.close();
    expect((await publicClaims(server, listing.slug)).find((claim) => claim.property === "tagline")?.source).toBe(`owner:account-${accountId}`);

    // A business key taken on the page works for an agent's MCP connection.
    await page.getByLabel("Label", { exact: true }).fill("Assistant");
    await Promise.all([page.waitForURL(`${dashboardUrl}/keys`), page.getByRole("button", { name: "Create key" }).click()]);
    const key = (await page.locator("#new-key-value").textContent()) ?? "";
    expect(key.length).toBeGreaterThan(20);
    await expectAccessible(page, "new-key");
    const visibility = await visibilityOverMcp(key);
    expect(visibility.business.slug).toBe(listing.slug);
    expect(typeof visibility.visibilityScore).toBe("number");

    // The lead moves on from new to contacted.
    await page.goto(dashboardUrl);
    const lead = page.locator("li").filter({ has: page.getByRole("heading", { name: "Meera Iyer" }) });
    await lead.getByLabel("Move this lead to").selectOption("contacted");
    await Promise.all([page.waitForURL(`${dashboardUrl}?done=moved#leads`), lead.getByRole("button", { name: "Move lead" }).click()]);
    await expect(
      page
        .locator("li")
        .filter({ has: page.getByRole("heading", { name: "Meera Iyer" }) })
        .locator(".lead-status")
        .textContent(),
    ).resolves.toBe("Contacted");
    await expectAccessible(page, "lead-moved");
    await context.close();
  });
});
