import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { CHROMIUM, launchChromium, warnOrFailWithoutChromium } from "./browser-fixtures";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * The SDK in a browser page of another origin (issue 26 item 1): the real SDK, bundled for the
 * browser, calls /trpc across origins. Public queries answer, with or without a key, and so does
 * the partner feed (its keyed cross-origin read); keyed private procedures stay closed to other
 * origins, by the same rule REST uses. Skips, saying so, only when no chromium exists.
 */

const SDK_ENTRY = fileURLToPath(new URL("../../../packages/sdk/src/index.ts", import.meta.url));

/** What a call made in the page came to: its answer's shape, or the SDK error's code. */
type Outcome = { ok: true; summary: string } | { ok: false; code: string };

warnOrFailWithoutChromium("sdk.browser.test.ts");

describe.skipIf(!CHROMIUM)("the SDK in a browser on another origin (chromium)", () => {
  let server: TestServer;
  let otherOrigin: Server;
  let otherOriginUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ seed: SMALL_TEST_WORLD });
    const bundle = await build({ entryPoints: [SDK_ENTRY], bundle: true, write: false, format: "iife", globalName: "DirectorySdk", platform: "browser" });
    const sdkScript = bundle.outputFiles[0]!.text;
    otherOrigin = createServer((req, res) => {
      if (req.url === "/sdk.js") {
        res.writeHead(200, { "content-type": "text/javascript" }).end(sdkScript);
        return;
      }
      res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>partner page</title><script src="/sdk.js"></script>');
    });
    await new Promise<void>((resolve) => otherOrigin.listen(0, "127.0.0.1", resolve));
    const address = otherOrigin.address();
    otherOriginUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (otherOrigin ? otherOrigin.close(() => resolve()) : resolve()));
    await server?.close();
  });

  /** Runs one SDK call in the page, with a key or none, and tells what came of it. */
  async function callInPage(procedure: string, input: unknown, apiKey?: string): Promise<Outcome> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(otherOriginUrl);
      expect(new URL(page.url()).origin).not.toBe(new URL(server.url).origin);
      return await page.evaluate(
        async ({ baseUrl, procedure, input, apiKey }) => {
          // The bundle's global, read in the page: this function runs in the browser, not in Node.
          const sdk = (
            globalThis as unknown as {
              DirectorySdk: { createDirectoryClient(options: object): Record<string, Record<string, { query(input: unknown): Promise<unknown> }>> };
            }
          ).DirectorySdk;
          const client = sdk.createDirectoryClient({ baseUrl, apiKey, retry: false });
          const [domain, name] = procedure.split(".") as [string, string];
          try {
            const answer = (await client[domain]![name]!.query(input)) as Record<string, unknown>;
            return { ok: true as const, summary: Object.keys(answer).sort().join(",") };
          } catch (error) {
            return { ok: false as const, code: String((error as { code?: unknown }).code) };
          }
        },
        { baseUrl: server.url, procedure, input, apiKey },
      );
    } finally {
      await context.close();
    }
  }

  it("answers public queries, anonymous and keyed, and the partner feed's keyed read", async () => {
    const categories = await callInPage("search.listCategories", {});
    expect(categories).toMatchObject({ ok: true, summary: expect.stringContaining("categories") });

    const developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
    expect(await callInPage("search.listCategories", {}, developerKey)).toMatchObject({ ok: true });

    const partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
    expect(await callInPage("feed.getPartnerFeed", { limit: 1 }, partnerKey)).toMatchObject({ ok: true, summary: expect.stringContaining("locations") });
  }, 60_000);

  it("keeps keyed private procedures closed to other origins, as REST does", async () => {
    const developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
    expect(await callInPage("webhooks.list", {}, developerKey)).toEqual({ ok: false, code: "NETWORK_ERROR" });
    // The same call from a server (no browser, no origin rule) is answered: the refusal above is the browser's CORS.
    const preflight = await fetch(`${server.url}/trpc/webhooks.list`, {
      method: "OPTIONS",
      headers: { origin: otherOriginUrl, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  }, 60_000);

  it("answers a public query's preflight with 204 and CORS headers instead of 415", async () => {
    const preflight = await fetch(`${server.url}/trpc/search.listCategories?input=%7B%7D`, {
      method: "OPTIONS",
      headers: { origin: otherOriginUrl, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
});
