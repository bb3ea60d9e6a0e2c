import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

/** Folders this process holds: tells a second open in this process from a stale lock of an earlier one with our pid. */
const heldHere = new Set<string>();

export const LOCK_FILE = "directory.lock";

/**
 * Takes the embedded database's data folder for this process: PGlite keeps its state in memory,
 * so two processes on one folder would each believe their own writes and silently diverge. The
 * lock is a file created exclusively, holding the pid; a lock whose process is gone is taken over.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = resolve(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      heldHere.add(path);
      return () => release(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = lockHolder(path);
    const live = isAlive(holder) && (holder !== process.pid || heldHere.has(path));
    if (live || attempt > 0) {
      throw new Error(
        `The data folder ${dataDir} is in use by process ${holder}: one process per embedded database. ` +
          `Stop that process, or use another DATA_DIR (or DATABASE_URL: several processes may share one PostgreSQL). ` +
          `If no such process is running, delete ${path}.`,
      );
    }
    // A stale lock: its process is gone (or is an earlier run of this one under the same pid).
    rmSync(path, { force: true });
  }
}

function lockHolder(path: string): number {
  try {
    return Number.parseInt(readFileSync(path, "utf8"), 10);
  } catch {
    return Number.NaN;
  }
}

function release(path: string): void {
  if (!heldHere.delete(path)) return;
  if (lockHolder(path) === process.pid) rmSync(path, { force: true });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
