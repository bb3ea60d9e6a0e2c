import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { TestSmtpServer } from "@directory/api/testing";
import { addListing } from "./claim-pages-fixtures";
import { CHROMIUM, expectAccessibleAtEveryWidth, signInInBrowser, startBrowserWorld, warnOrFailWithoutChromium, type BrowserWorld } from "./browser-fixtures";
import type { TestServer } from "./testing";

/**
 * The agency pages in a real browser (chromium via playwright-core): a person creates an agency
 * from the dashboard, invites a member, takes a developer key and chooses it on a claim page; the
 * pages have no serious or critical axe violation and nothing cut off at 1280 and 390 px. Skips
 * only without chromium.
 */

warnOrFailWithoutChromium("agency.browser.test.ts");

describe.skipIf(!CHROMIUM)("agency pages in a browser (chromium)", () => {
  let world: BrowserWorld;
  let server: TestServer;
  let smtp: TestSmtpServer;
  let browser: Browser;

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ server, smtp, browser } = world);
  });
  afterAll(() => world?.close());

  const expectAccessible = (page: Page, name: string) => expectAccessibleAtEveryWidth(page, world.axeSummary, name);

  it("creates an agency, invites a member and shows a key once, accessibly at both widths", { timeout: 180_000 }, async () => {
    // CSP bypassed only so axe can be injected; the pages' own CSP is checked by the HTTP tests.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await signInInBrowser(page, server.url, smtp, "browser-agency@example.org");
    await expectAccessible(page, "dashboard");

    await page.getByLabel("Agency name").fill("Browser Agency");
    await Promise.all([page.waitForURL(/\/dashboard\/agency\/browser-agency$/), page.getByRole("button", { name: "Create agency" }).click()]);
    await expect(page.locator("h1").textContent()).resolves.toBe("Browser Agency");
    await expectAccessible(page, "agency");

    await page.getByLabel("Email", { exact: true }).fill("browser-agency-member@example.org");
    await page.getByLabel("Role").selectOption("owner");
    await Promise.all([page.waitForURL(/\?invited=1/), page.getByRole("button", { name: "Invite" }).click()]);
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain("added");
    await expect(page.locator("#agency-members").locator("..").textContent()).resolves.toContain("browser-agency-member@example.org");

    await page.getByLabel("Label").fill("agency reports");
    await Promise.all([page.waitForURL(/\/keys$/), page.getByRole("button", { name: "Create key" }).click()]);
    await expect(page.locator("#new-key-value").textContent()).resolves.toMatch(/^bdk_/);
    await expectAccessible(page, "agency-new-key");

    // The claim page of a person with an agency offers "Claim for".
    const listing = await addListing(server, { name: "Browser Claim For Dental", email: "desk@browser-claim.example" });
    await page.goto(`${server.url}/business/${listing.slug}/claim`);
    await page.getByLabel("Claim for").selectOption({ label: "Browser Agency (your agency)" });
    await Promise.all([page.waitForURL(/\?for=browser-agency$/), page.getByRole("button", { name: "Choose" }).click()]);
    await expect(page.locator('input[name="agencySlug"]').first().getAttribute("value")).resolves.toBe("browser-agency");
    await expectAccessible(page, "claim-for-agency");
    await context.close();
  });
});
