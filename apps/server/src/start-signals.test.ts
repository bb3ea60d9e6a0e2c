import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findPnpmCli } from "./find-pnpm-cli";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "directory-signals-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const pnpmCli = findPnpmCli();

describe("the start script and signals", () => {
  it("runs the built server with node, building it first when needed", () => {
    const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.start).toMatch(/exec node apps\/server\/dist\/main\.js$/);
    expect(scripts.start).not.toMatch(/\btsx\b/);
  });

  it.skipIf(!pnpmCli).each(["SIGTERM", "SIGINT"] as const)(
    "pnpm start, sent %s, shuts the server down gracefully",
    async (signal) => {
      const child = spawn(process.execPath, [pnpmCli!, "start"], {
        cwd: repoRoot,
        env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: path.join(dataDir, signal), DEMO_SEED: "off", LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      // "close": pnpm has exited and so has every process holding its output, the server included.
      const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));

      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /"url":"(http:\/\/[^"]+)"/.exec(output) ?? /(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match) {
            clearInterval(timer);
            resolve(match[1]!);
          }
        }, 100);
        void exited.then(() => {
          clearInterval(timer);
          reject(new Error(`the server exited before listening:\n${output}`));
        });
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(existsSync(path.join(repoRoot, "apps/server/dist/main.js"))).toBe(true);

      child.kill(signal);
      // pnpm may report an interrupted script as 130 (128 + SIGINT); the server itself exits 0 either way.
      expect(signal === "SIGINT" ? [0, 130] : [0]).toContain(await exited);
      expect(output).toContain("shutting down");
      expect(output).toContain("directory service stopped");
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    },
    180_000,
  );
});
