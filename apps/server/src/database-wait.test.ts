import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * Containers start together: a server whose PostgreSQL is not up yet waits for it (with backoff,
 * for DB_STARTUP_TIMEOUT_MS) rather than exiting at once, then exits 1 saying what it tried.
 */
describe("a server started against an unreachable PostgreSQL", () => {
  it("retries with backoff for DB_STARTUP_TIMEOUT_MS, then exits 1 naming the address and the variable", async () => {
    const boundMs = 3_000;
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        // Port 1: nothing listens there, so every attempt is refused.
        DATABASE_URL: "postgres://directory:secret-password@127.0.0.1:1/directory",
        DB_STARTUP_TIMEOUT_MS: String(boundMs),
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    // When the first refusal was reported: the wait is timed from there, not from the process start (tsx takes seconds).
    let firstRefusalAt: number | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (firstRefusalAt === undefined && output.includes("PostgreSQL not reachable yet")) firstRefusalAt = performance.now();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const waitedMs = performance.now() - (firstRefusalAt ?? Number.NaN);

    expect(code, output).toBe(1);
    // It waited out the bound (not an exit at the first refusal), and not much longer.
    expect(waitedMs, output).toBeGreaterThanOrEqual(boundMs - 500);
    expect(waitedMs).toBeLessThan(boundMs + 10_000);
    const retries = output.split("\n").filter((line) => line.includes("PostgreSQL not reachable yet"));
    expect(retries.length, output).toBeGreaterThanOrEqual(2);
    // Backoff: the announced waits grow.
    const waits = retries.map((line) => (JSON.parse(line) as { retryInMs: number }).retryInMs);
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    expect(output).toMatch(/PostgreSQL at 127\.0\.0\.1:1 not reachable after \d+ s \(DB_STARTUP_TIMEOUT_MS=3000\)/);
    expect(output).toContain("ECONNREFUSED");
    expect(output).not.toContain("secret-password");
  }, 60_000);
});
