import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "@directory/db/testing";

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

/** A port nothing listens on yet. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Forwards every connection on `port` to PostgreSQL: the database "coming up" at that address. */
async function forwardTo(port: number, target: URL): Promise<net.Server> {
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(port, "127.0.0.1", resolve));
  return proxy;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("a server started before its PostgreSQL (PostgreSQL tests)", () => {
  it("keeps retrying, and serves once the database answers", async () => {
    const database = await createTestDatabase({ seed: false });
    const dataDir = mkdtempSync(path.join(tmpdir(), "directory-wait-"));
    const port = await freePort();
    const target = new URL(database.url!);
    const late = new URL(database.url!);
    late.hostname = "127.0.0.1";
    late.port = String(port);
    let proxy: net.Server | undefined;
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: late.toString(),
        DB_STARTUP_TIMEOUT_MS: "60000",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DEMO_SEED: "off",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          // Up only after the second refusal: the server has waited and tried again.
          if (!proxy && output.split("PostgreSQL not reachable yet").length > 2) void forwardTo(port, target).then((started) => (proxy = started));
          const listening = /"url":"(http:\/\/[^"]+)"[^\n]*directory service listening/.exec(output);
          if (listening) resolve(listening[1]!);
        });
        void exited.then(() => reject(new Error(`the server exited:\n${output}`)));
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
      rmSync(dataDir, { recursive: true, force: true });
      await database.destroy();
    }
  }, 90_000);
});
