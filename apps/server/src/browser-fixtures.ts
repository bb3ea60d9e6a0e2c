import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";
import type { TestSmtpServer } from "@directory/api/testing";
import { signInLinkOf } from "./account-pages-fixtures";

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

/** Signs a person in as they do: /sign-in, the link in their mail, its Sign in button; the page ends on /dashboard. */
export async function signInInBrowser(page: Page, baseUrl: string, smtp: TestSmtpServer, email: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await Promise.all([page.waitForURL(`${baseUrl}/sign-in`), page.getByRole("button", { name: "Send sign-in link" }).click()]);
  const link = signInLinkOf((await smtp.nextMail(email)).text);
  await page.goto(link.href);
  await Promise.all([page.waitForURL(`${baseUrl}/dashboard`), page.getByRole("button", { name: "Sign in" }).click()]);
}

/** No serious or critical axe-core violation and nothing cut off, on the page as it is, at each of PAGE_WIDTHS; then back at the desktop's. */
export async function expectAccessibleAtEveryWidth(page: Page, summary: Record<string, Record<string, number>>, name: string): Promise<void> {
  for (const [label, width] of PAGE_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await horizontalOverflow(page), `${name} at ${width}px is cut off horizontally`).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page, summary, `${name}-${label}`), `${name} at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: PAGE_WIDTHS[0][1], height: 900 });
}
