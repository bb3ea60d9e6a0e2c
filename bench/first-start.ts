/* The first start on the embedded database (PGlite): migrate and seed to a healthy server, and its memory. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { memoryOf } from "./feed";
import { startAndWait, stop } from "./processes";
import { builtServer, node } from "./settings";

export async function benchFirstStart(note: (line: string) => void): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "directory-bench-start-"));
  try {
    const port = 3990;
    const { child, readyAfterMs } = await startAndWait(
      node,
      builtServer,
      { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: "", LOG_LEVEL: "warn" },
      `http://127.0.0.1:${port}/healthz`,
      180_000,
    );
    // The seed's high-water mark, then what an idle server settles at (a few requests served).
    const atReady = memoryOf(child.pid ?? 0);
    for (let i = 0; i < 20; i++) await (await fetch(`http://127.0.0.1:${port}/api/v2/categories`)).text();
    await sleep(5_000);
    const idle = memoryOf(child.pid ?? 0);
    await stop(child);
    note("");
    note(
      `## First start on the embedded database: ${(readyAfterMs / 1000).toFixed(1)} s to a healthy server (migrate + seed 10,000 businesses; target < 30 s)`,
    );
    note(`- Memory on the embedded database: ${atReady.peakMb} MB peak during the first start (target < 1,024 MB), ${idle.rssMb} MB resident idle after it`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
