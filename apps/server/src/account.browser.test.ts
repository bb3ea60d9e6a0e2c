import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { TestSmtpServer } from "@directory/api/testing";
import { signInLinkOf } from "./account-pages-fixtures";
import {
  CHROMIUM,
  expectNothingCutOffAtEveryWidth,
  newCspWatchedContext,
  PAGE_WIDTHS,
  seriousAxeViolations,
  startBrowserWorld,
  warnOrFailWithoutChromium,
  type BrowserWorld,
} from "./browser-fixtures";
import type { TestServer } from "./testing";

/**
 * The account pages in a real browser (chromium via playwright-core), with a real SMTP server on
 * loopback and PUBLIC_BASE_URL the server's own address: sign in by mail, create a key, use it,
 * see its use, revoke it; a second person (with JavaScript off) neither sees it nor revokes it.
 * axe-core finds no serious or critical violation at 1280 and 390 px. Skips only without chromium.
 */
/** A category and city of the seeded demo world (as in pages.browser.test.ts). */
const SEARCH = "/api/v2/businesses?category=dentist&city=Mumbai&limit=1";
const USES = 3;

warnOrFailWithoutChromium("account.browser.test.ts");

describe.skipIf(!CHROMIUM)("account pages in a browser (chromium)", () => {
  let world: BrowserWorld;
  let server: TestServer;
  let smtp: TestSmtpServer;
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    world = await startBrowserWorld({ artifacts: "account" });
    ({ server, smtp, browser } = world);
  });
  afterAll(() => world?.close());

  const newContext = (options: { javaScriptEnabled?: boolean; bypassCSP?: boolean } = {}) => newCspWatchedContext(browser, cspViolations, options);
  const screenshots = (page: Page, name: string) => expectNothingCutOffAtEveryWidth(page, name, "account");

  /** Signs a browser in through the pages: the form, the mail on the SMTP server, its link. */
  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await Promise.all([page.waitForURL(`${server.url}/sign-in`), page.getByRole("button", { name: "Send sign-in link" }).click()]);
    await expect(page.locator("h1").textContent()).resolves.toBe("Check your mail");
    const link = signInLinkOf((await smtp.nextMail(email)).text);
    expect(link.origin).toBe(server.url);
    await page.goto(link.href);
    await Promise.all([page.waitForURL(`${server.url}/dashboard`), page.getByRole("button", { name: "Sign in" }).click()]);
  }

  /** axe-core on one page (CSP bypassed only so axe can be injected), at both widths. */
  async function expectAccessible(context: BrowserContext, path: string, name: string): Promise<void> {
    const page = await context.newPage();
    try {
      for (const [label, width] of PAGE_WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const response = await page.goto(`${server.url}${path}`);
        expect(response?.status(), path).toBe(200);
        expect(await seriousAxeViolations(page, world.axeSummary, `${name}-${label}`), `${name} (${path}) at ${width}px`).toEqual([]);
      }
    } finally {
      await page.close();
    }
  }

  const search = (key: string) => fetch(`${server.url}${SEARCH}`, { headers: { authorization: `Bearer ${key}` } });

  it("signs in by mail, creates a key shown once, counts its use, keeps it from another person, and revokes it", { timeout: 180_000 }, async () => {
    const developer = await newContext();
    const page = await developer.newPage();
    await page.goto(`${server.url}/sign-in`);
    await screenshots(page, "sign-in");
    await signIn(page, "browser-dev@example.org");
    await expect(page.locator("h1").textContent()).resolves.toBe("Your dashboard");
    await screenshots(page, "dashboard");

    await page.goto(`${server.url}/developers`);
    await page.getByLabel("Label", { exact: true }).fill("browser test");
    await Promise.all([page.waitForURL(`${server.url}/developers/keys`), page.getByRole("button", { name: "Create key" }).click()]);
    const key = (await page.locator("#new-key-value").textContent()) ?? "";
    expect(key).toMatch(/^bdk_dev_/);
    await expect(page.locator(".new-key").textContent()).resolves.toContain("shown this once and never again");
    await screenshots(page, "developers-new-key");

    for (let i = 0; i < USES; i += 1) expect((await search(key)).status).toBe(200);
    await page.goto(`${server.url}/developers`);
    const item = page.locator(".keys > li", { hasText: "browser test" });
    await expect(item.locator(".usage").textContent()).resolves.toBe(`${USES} of 100 requests this month`);
    await expect(page.content()).resolves.not.toContain(key);
    const keyId = await item.locator('input[name="id"]').getAttribute("value");
    const prefix = await item.locator("code").first().textContent();
    expect(key.startsWith(prefix!)).toBe(true);
    await screenshots(page, "developers");

    // Another person, in a browser with JavaScript off: the pages work, and the key is not theirs.
    const other = await newContext({ javaScriptEnabled: false });
    const otherPage = await other.newPage();
    await signIn(otherPage, "browser-other@example.org");
    await otherPage.goto(`${server.url}/developers`);
    await expect(otherPage.content()).resolves.not.toContain(prefix!);
    await expect(otherPage.content()).resolves.not.toContain("browser test");
    const otherToken = await otherPage.locator('input[name="csrfToken"]').first().getAttribute("value");
    const forged = await other.request.post(`${server.url}/developers/keys/revoke`, {
      form: { id: keyId!, csrfToken: otherToken! },
      headers: { origin: server.url },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(404);
    expect((await search(key)).status).toBe(200);
    await other.close();

    await Promise.all([page.waitForURL(/\/developers\?revoked=1/), item.getByRole("button", { name: "Revoke" }).click()]);
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain("The key was revoked");
    await expect(page.locator(".keys > li", { hasText: "browser test" }).count()).resolves.toBe(0);
    expect((await search(key)).status).toBe(401);

    await page.goto(`${server.url}/dashboard`);
    await Promise.all([page.waitForURL(`${server.url}/`), page.getByRole("button", { name: "Sign out" }).click()]);
    await page.goto(`${server.url}/dashboard`);
    expect(page.url()).toBe(`${server.url}/sign-in`);
    await developer.close();
    expect(cspViolations).toEqual([]);
  });

  it("has no serious or critical axe-core violations on /developers (signed out and in), /sign-in and /dashboard", { timeout: 180_000 }, async () => {
    const axeContext = await newContext({ bypassCSP: true });
    try {
      await expectAccessible(axeContext, "/developers", "developers-signed-out");
      await expectAccessible(axeContext, "/sign-in", "sign-in");
      const page = await axeContext.newPage();
      await signIn(page, "browser-axe@example.org");
      await page.goto(`${server.url}/developers`);
      await page.getByLabel("Label", { exact: true }).fill("axe");
      await Promise.all([page.waitForURL(`${server.url}/developers/keys`), page.getByRole("button", { name: "Create key" }).click()]);
      await page.close();
      await expectAccessible(axeContext, "/developers", "developers-signed-in");
      await expectAccessible(axeContext, "/dashboard", "dashboard");
    } finally {
      await axeContext.close();
    }
  });
});
