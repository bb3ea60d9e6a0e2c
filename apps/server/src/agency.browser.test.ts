import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
import { signInLinkOf } from "./account-pages-fixtures";
import { addListing } from "./claim-pages-fixtures";
import { CHROMIUM, horizontalOverflow, launchChromium, PAGE_WIDTHS, seriousAxeViolations, warnOrFailWithoutChromium } from "./browser-fixtures";
import { startTestServer, type TestServer } from "./testing";

/**
 * The agency pages in a real browser (chromium via playwright-core): a person creates an agency
 * from the dashboard, invites a member, takes a developer key and chooses it on a claim page; the
 * pages have no serious or critical axe violation and nothing cut off at 1280 and 390 px. Skips
 * only without chromium.
 */

warnOrFailWithoutChromium("agency.browser.test.ts");

describe.skipIf(!CHROMIUM)("agency pages in a browser (chromium)", () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let browser: Browser;
  const axeSummary: Record<string, Record<string, number>> = {};

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    server = await startTestServer({
      smtpUrl: smtp.url,
      ownPublicBaseUrl: true,
      rateLimits: { anonymousPerDay: 1_000_000, openPerMinute: 1_000_000, signInMailsPerClientPerHour: 1000 },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await Promise.all([page.waitForURL(`${server.url}/sign-in`), page.getByRole("button", { name: "Send sign-in link" }).click()]);
    const link = signInLinkOf((await smtp.nextMail(email)).text);
    await page.goto(link.href);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.getByRole("button", { name: "Sign in" }).click()]);
  }

  /** axe-core and the overflow check on the page as it is now, at both widths. */
  async function expectAccessible(page: Page, name: string): Promise<void> {
    for (const [label, width] of PAGE_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      expect(await horizontalOverflow(page), `${name} at ${width}px is cut off horizontally`).toBeLessThanOrEqual(0);
      expect(await seriousAxeViolations(page, axeSummary, `${name}-${label}`), `${name} at ${width}px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it("creates an agency, invites a member and shows a key once, accessibly at both widths", { timeout: 180_000 }, async () => {
    // CSP bypassed only so axe can be injected; the pages' own CSP is checked by the HTTP tests.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await signIn(page, "browser-agency@example.org");
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
