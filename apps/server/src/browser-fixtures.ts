import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
import { signInLinkOf } from "./account-pages-fixtures";
import { startTestServer, type TestServer } from "./testing";

/**
 * Debian's chromium for the browser tests (or CHROMIUM_PATH). Without it a developer's run skips
 * them, saying so; CI installs it (.ci/run), so there a missing browser fails the run instead of
 * passing it unseen.
 */
export const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (path): path is string => !!path && existsSync(path),
);

export function warnOrFailWithoutChromium(testFile: string): void {
  if (CHROMIUM) return;
  const reason = `${testFile}: no chromium binary (install it: apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`${reason}; CI must run the browser tests`);
  console.warn(`${reason}: SKIPPED`);
}

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** The widths every page test looks at: a desktop and a phone. */
export const PAGE_WIDTHS = [
  ["desktop", 1280],
  ["phone", 390],
] as const;

const AXE_SOURCE = CHROMIUM ? readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8") : "";

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/**
 * axe-core on the page as it is (its context must bypass CSP so axe can be injected): counts the
 * violations by impact into summary[key], and returns the serious and critical ones, described.
 */
export async function seriousAxeViolations(page: Page, summary: Record<string, Record<string, number>>, key: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate<AxeResults>('axe.run(document, { resultTypes: ["violations"] })');
  const counts: Record<string, number> = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const violation of results.violations) counts[violation.impact ?? "minor"] = (counts[violation.impact ?? "minor"] ?? 0) + 1;
  summary[key] = counts;
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** How far the page is wider than its viewport (0 or less: nothing is cut off horizontally). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
}

/** Where browser tests leave screenshots and axe summaries for a person to look at (CI keeps the folder). */
export const TEST_ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

export type AxeSummary = Record<string, Record<string, number>>;

export interface BrowserWorld {
  server: TestServer;
  smtp: TestSmtpServer;
  browser: Browser;
  /** axe-core's counts by page and width; written to test-artifacts on close when the world was named. */
  axeSummary: AxeSummary;
  close(): Promise<void>;
}

/**
 * What the signed-in browser tests share: a real SMTP server on loopback, a server mailing to it
 * with PUBLIC_BASE_URL its own address (so the links in mails open in the browser) and limits no
 * test reaches, and chromium. With artifacts, close() writes `{artifacts}-axe-summary.json`.
 */
export async function startBrowserWorld(options: { artifacts?: string } = {}): Promise<BrowserWorld> {
  if (options.artifacts) mkdirSync(TEST_ARTIFACTS, { recursive: true });
  const smtp = await startTestSmtpServer();
  let server: TestServer | undefined;
  try {
    server = await startTestServer({
      smtpUrl: smtp.url,
      ownPublicBaseUrl: true,
      rateLimits: { anonymousPerDay: 1_000_000, openPerMinute: 1_000_000, signInMailsPerClientPerHour: 1000 },
    });
    const browser = await launchChromium();
    const axeSummary: AxeSummary = {};
    const started = server;
    return {
      server,
      smtp,
      browser,
      axeSummary,
      async close() {
        if (options.artifacts) writeFileSync(`${TEST_ARTIFACTS}${options.artifacts}-axe-summary.json`, `${JSON.stringify(axeSummary, null, 2)}\n`);
        await browser.close();
        await started.close();
        await smtp.close();
      },
    };
  } catch (error) {
    await server?.close();
    await smtp.close();
    throw error;
  }
}

/** A desktop-sized context that records every Content Security Policy violation its pages log into cspViolations. */
export async function newCspWatchedContext(
  browser: Browser,
  cspViolations: string[],
  options: { javaScriptEnabled?: boolean; bypassCSP?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: PAGE_WIDTHS[0][1], height: 900 }, ...options });
  context.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return context;
}

/** Signs a person in as they do: /sign-in, the link in their mail, its Sign in button; the page ends on /dashboard. */
export async function signInInBrowser(page: Page, baseUrl: string, smtp: TestSmtpServer, email: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await Promise.all([page.waitForURL(`${baseUrl}/sign-in`), page.getByRole("button", { name: "Send sign-in link" }).click()]);
  const link = signInLinkOf((await smtp.nextMail(email)).text);
  await page.goto(link.href);
  await Promise.all([page.waitForURL(`${baseUrl}/dashboard`), page.getByRole("button", { name: "Sign in" }).click()]);
}

/** Runs check on the page at each of PAGE_WIDTHS, then leaves it at the desktop's. */
async function atEveryWidth(page: Page, check: (label: string, width: number) => Promise<void>): Promise<void> {
  for (const [label, width] of PAGE_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await check(label, width);
  }
  await page.setViewportSize({ width: PAGE_WIDTHS[0][1], height: 900 });
}

/** Named `{screenshots}-{name}-{width label}.png` in test-artifacts when screenshots is given. */
async function screenshot(page: Page, screenshots: string | undefined, name: string, label: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `${TEST_ARTIFACTS}${screenshots}-${name}-${label}.png`, fullPage: true });
}

/** Nothing cut off horizontally at each of PAGE_WIDTHS, with a full-page screenshot of each when screenshots names the test. */
export async function expectNothingCutOffAtEveryWidth(page: Page, name: string, screenshots?: string): Promise<void> {
  await atEveryWidth(page, async (label, width) => {
    expect(await horizontalOverflow(page), `${name} at ${width}px is cut off horizontally`).toBeLessThanOrEqual(0);
    await screenshot(page, screenshots, name, label);
  });
}

/**
 * No serious or critical axe-core violation and nothing cut off, on the page as it is (a form's
 * answer cannot be loaded again by URL), at each of PAGE_WIDTHS, with a screenshot of each when
 * screenshots names the test. The page's context must bypass CSP so axe can be injected.
 */
export async function expectAccessibleAtEveryWidth(page: Page, summary: AxeSummary, name: string, screenshots?: string): Promise<void> {
  await atEveryWidth(page, async (label, width) => {
    expect(await horizontalOverflow(page), `${name} at ${width}px is cut off horizontally`).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page, summary, `${name}-${label}`), `${name} at ${width}px`).toEqual([]);
    await screenshot(page, screenshots, name, label);
  });
}
