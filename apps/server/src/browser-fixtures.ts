import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

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
