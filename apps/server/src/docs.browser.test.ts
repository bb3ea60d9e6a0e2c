import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { CHROMIUM, launchChromium, warnOrFailWithoutChromium } from "./browser-fixtures";
import { startTestServer, type TestServer } from "./testing";

/**
 * /docs "Try it out" in a real browser, opened at an address other than the public base URL (the
 * test server's is http://directory.test; the page is opened at 127.0.0.1, as on a LAN address or
 * behind a proxy): the call must reach the server the page came from, under the page's CSP, and
 * the text must show placeholders such as Bearer <key> as written. Skips, saying so, only when
 * no chromium exists.
 */

warnOrFailWithoutChromium("docs.browser.test.ts");

describe.skipIf(!CHROMIUM)("/docs in a browser (chromium)", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("Try it out calls the server the page was opened at, and shows Bearer <key> as written", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    context.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text());
    });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    // The browser asks for /favicon.ico on its own; every other request of the page must succeed.
    page.on("response", (response) => {
      if (response.status() >= 400 && !response.url().endsWith("/favicon.ico")) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${server.url}/docs`);
    await page.locator(".information-container .description").waitFor();
    const description = await page.locator(".information-container .description").innerText();
    expect(description).toContain("Authorization: Bearer <key>");
    expect(description).not.toMatch(/Bearer \./);

    // The first server is this page's own origin.
    expect(await page.locator(".servers select option").first().getAttribute("value")).toBe("/");

    const operation = page.locator("#operations-search-listCategories");
    await operation.locator(".opblock-summary").click();
    await operation.locator("button.try-out__btn").click();
    await operation.locator("button.execute").click();
    await operation.locator(".live-responses-table tbody .response-col_status").first().waitFor();
    expect((await operation.locator(".live-responses-table tbody .response-col_status").first().innerText()).trim()).toBe("200");
    expect(requested).toContain(`${server.url}/api/v2/categories`);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
