import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { LOCK_FILE, lockDataDir } from "./data-dir-lock";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "directory-lock-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function folder(name: string): string {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  return path;
}

/** The pid of a process that has exited, so no process holds it now. */
function exitedPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (!pid) throw new Error("could not start a child process");
  return pid;
}

describe("the embedded database's data folder lock", () => {
  it("refuses a second database on the same folder, naming the folder and the holding pid, and allows it after the first closes", async () => {
    const dataDir = join(root, "pglite");
    const first = await createDatabase({ dataDir });
    try {
      expect(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim()).toBe(String(process.pid));
      await expect(createDatabase({ dataDir })).rejects.toThrow(`The data folder ${dataDir} is in use by process ${process.pid}`);
    } finally {
      await first.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const second = await createDatabase({ dataDir });
    await second.close();
  });

  it("takes over a lock whose process is gone", () => {
    const dataDir = folder("stale");
    writeFileSync(join(dataDir, LOCK_FILE), `${exitedPid()}\n`);
    const release = lockDataDir(dataDir);
    expect(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim()).toBe(String(process.pid));
    release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it("takes over a lock left by an earlier run under this process's pid (a restarted container), but not one this process holds", () => {
    const dataDir = folder("same-pid");
    writeFileSync(join(dataDir, LOCK_FILE), `${process.pid}\n`);
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(`is in use by process ${process.pid}`);
    release();
  });

  it("refuses a lock held by a live process, and says how to clear a lock left behind", () => {
    const dataDir = folder("live");
    // The parent of this test process is alive for as long as the test runs.
    writeFileSync(join(dataDir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(dataDir)).toThrow(`in use by process ${process.ppid}`);
    expect(() => lockDataDir(dataDir)).toThrow(`If no such process is running, delete ${join(dataDir, LOCK_FILE)}`);
    expect(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim()).toBe(String(process.ppid));
  });
});
