import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseApiKey } from "@directory/api";
import { readConfig } from "./config";
import { startServer } from "./start";

const dataDir = mkdtempSync(join(tmpdir(), "directory-start-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("startServer on the embedded database", () => {
  it("migrates, bootstraps an admin key file (0600), serves, and shuts down cleanly", async () => {
    const config = { ...readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO_SEED: "off", LOG_LEVEL: "silent" }) };
    const running = await startServer(config);
    try {
      const keyFile = join(dataDir, "admin.key");
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(parseApiKey(readFileSync(keyFile, "utf8").trim())).toBe("admin");
      const health = await fetch(`${running.url}/healthz`);
      expect(health.status).toBe(200);

      // Shutdown begins while a request is being handled: it still completes; new ones are refused.
      let closing: Promise<void> | undefined;
      running.server.once("request", () => {
        closing = running.close();
      });
      const inFlight = await fetch(`${running.url}/api/assistant-plugin?category=dentist&city=Mumbai`);
      expect(inFlight.status).toBe(200);
      expect(closing).toBeDefined();
      await closing;
      await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
    } finally {
      await running.close();
    }
  });
});
