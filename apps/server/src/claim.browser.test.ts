import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { TestSmtpServer } from "@directory/api/testing";
import {
  CHROMIUM,
  expectAccessibleAtEveryWidth,
  expectNothingCutOffAtEveryWidth,
  newCspWatchedContext,
  signInInBrowser,
  startBrowserWorld,
  warnOrFailWithoutChromium,
  type BrowserWorld,
} from "./browser-fixtures";
import { addListing, codeInMail, startLoopbackSite, wrongCode, type LoopbackSite } from "./claim-pages-fixtures";
import type { TestServer } from "./testing";

/**
 * Claiming listings in a real browser (chromium via playwright-core), with a real SMTP server and a
 * real website on loopback: from a listing's page, Claim this business, a website token put on the
 * site, Verify, the dashboard; a second listing by a mailed code with JavaScript off; then both
 * public pages say Owner-verified. axe-core finds no serious or critical violation on the claim
 * page, the token's page and the code form at 1280 and 390 px. Skips only without chromium.
 */
warnOrFailWithoutChromium("claim.browser.test.ts");

describe.skipIf(!CHROMIUM)("claiming a listing in a browser (chromium)", () => {
  let world: BrowserWorld;
  let server: TestServer;
  let smtp: TestSmtpServer;
  let site: LoopbackSite;
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    world = await startBrowserWorld({ artifacts: "claim" });
    ({ server, smtp, browser } = world);
    site = await startLoopbackSite();
  });
  afterAll(async () => {
    await site?.close();
    await world?.close();
  });

  const newContext = (options: { javaScriptEnabled?: boolean; bypassCSP?: boolean } = {}) => newCspWatchedContext(browser, cspViolations, options);
  /** Full-page screenshots at both widths, none cut off horizontally. */
  const screenshots = (page: Page, name: string) => expectNothingCutOffAtEveryWidth(page, name, "claim");
  const signIn = (page: Page, email: string) => signInInBrowser(page, server.url, smtp, email);

  /** From the listing's public page to its claim page, by the link a visitor sees. */
  async function openClaimPage(page: Page, slug: string): Promise<void> {
    await page.goto(`${server.url}/business/${slug}`);
    await Promise.all([page.waitForURL(`${server.url}/business/${slug}/claim`), page.getByRole("link", { name: "Claim this business" }).click()]);
  }

  const expectAccessible = (page: Page, name: string) => expectAccessibleAtEveryWidth(page, world.axeSummary, name);

  it("claims one listing by its website and another by a mailed code, and both pages say Owner-verified", { timeout: 180_000 }, async () => {
    const email = "browser-claimant@example.org";
    const byWebsite = await addListing(server, { name: "Browser Harbour Dental", website: site.home });
    const byEmail = await addListing(server, { name: "Browser Front Desk Dental", email: "desk@browserfront.example" });

    const context = await newContext();
    const page = await context.newPage();
    await signIn(page, email);
    await openClaimPage(page, byWebsite.slug);
    await expect(page.locator("h1").textContent()).resolves.toBe("Claim Browser Harbour Dental");
    await screenshots(page, "page");

    await Promise.all([
      page.waitForURL(`${server.url}/business/${byWebsite.slug}/claim/website`),
      page.getByRole("button", { name: "Get a website token" }).click(),
    ]);
    const token = (await page.locator("#website-token").textContent()) ?? "";
    const metaTag = (await page.locator("#meta-tag").textContent()) ?? "";
    expect(metaTag).toBe(`<meta name="business-directory-verification" content="${token}">`);
    await expect(page.locator("main").textContent()).resolves.toContain("/.well-known/business-directory-verification.txt");
    await screenshots(page, "token");

    // The site owner puts the tag the page showed on the home page; Verify finds it.
    site.setHead(metaTag);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.getByRole("button", { name: "Verify" }).click()]);
    await expect(page.getByRole("link", { name: "Browser Harbour Dental" }).count()).resolves.toBe(1);
    await context.close();

    // The second listing in a browser with JavaScript off: the pages need none.
    const noScript = await newContext({ javaScriptEnabled: false });
    const mailPage = await noScript.newPage();
    await signIn(mailPage, email);
    await openClaimPage(mailPage, byEmail.slug);
    await Promise.all([mailPage.waitForURL(`${server.url}/business/${byEmail.slug}/claim/email`), mailPage.getByRole("button", { name: "Send code" }).click()]);
    await expect(mailPage.locator('[role="status"]').textContent()).resolves.toContain("d***@browserfront.example");
    await screenshots(mailPage, "code");
    const code = codeInMail((await smtp.nextMail("desk@browserfront.example")).text);
    await mailPage.getByLabel("Code", { exact: true }).fill(code);
    await Promise.all([mailPage.waitForURL(`${server.url}/dashboard`), mailPage.getByRole("button", { name: "Verify" }).click()]);
    await expect(mailPage.getByRole("link", { name: "Browser Front Desk Dental" }).count()).resolves.toBe(1);
    await expect(mailPage.getByRole("link", { name: "Browser Harbour Dental" }).count()).resolves.toBe(1);
    await noScript.close();

    // A visitor's browser (public pages may be cached for a minute: one that saw them before the claim may still show them unclaimed).
    const visitor = await newContext();
    const profile = await visitor.newPage();
    for (const listing of [byWebsite, byEmail]) {
      await profile.goto(`${server.url}/business/${listing.slug}`);
      await expect(profile.locator("main").textContent()).resolves.toContain("Owner-verified");
      await expect(profile.getByRole("link", { name: "Claim this business" }).count()).resolves.toBe(0);
    }
    await screenshots(profile, "owned-listing");
    await visitor.close();
    site.setHead("");
    expect(cspViolations).toEqual([]);
  });

  it("has no serious or critical axe-core violations on the claim page, the token's page and the code form", { timeout: 180_000 }, async () => {
    const listing = await addListing(server, { name: "Browser Axe Dental", website: site.home, email: "desk@browseraxe.example" });
    const context = await newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      await signIn(page, "browser-axe-claimant@example.org");
      await openClaimPage(page, listing.slug);
      await expectAccessible(page, "claim-page");

      await Promise.all([page.waitForURL(/\/claim\/website$/), page.getByRole("button", { name: "Get a website token" }).click()]);
      await expectAccessible(page, "claim-token");
      await Promise.all([page.waitForURL(/\/claim\/website\/verify$/), page.getByRole("button", { name: "Verify" }).click()]);
      await expect(page.locator("h1").textContent()).resolves.toBe("The token was not found");
      await expectAccessible(page, "claim-token-not-found");

      await openClaimPage(page, listing.slug);
      await Promise.all([page.waitForURL(/\/claim\/email$/), page.getByRole("button", { name: "Send code" }).click()]);
      await expectAccessible(page, "claim-code");
      const code = codeInMail((await smtp.nextMail("desk@browseraxe.example")).text);
      await page.getByLabel("Code", { exact: true }).fill(wrongCode(code));
      await Promise.all([page.waitForURL(/\/claim\/email\/verify$/), page.getByRole("button", { name: "Verify" }).click()]);
      await expect(page.locator("main").textContent()).resolves.toContain("Wrong code: 4 tries left");
      await expectAccessible(page, "claim-code-wrong");
    } finally {
      await context.close();
    }
  });
});
