import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { asPostgresUser, freeLoopbackPort } from "../test-processes";

/*
 * For tests: a PostgreSQL primary and a streaming replica of it, made from nothing with the
 * installed server's own tools (initdb, pg_basebackup -R, pg_ctl) on free loopback ports, in a
 * temporary folder that close() removes; under root every tool runs as the postgres OS user.
 */

const run = promisify(execFile);

export interface StreamingCluster {
  primaryUrl(database: string): string;
  replicaUrl(database: string): string;
  /** Stops the replica (fast shutdown) or starts it again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Pauses or resumes the replica's replay of the primary's WAL (it keeps receiving it). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** True once the replica has replayed everything the primary had written when asked. */
  caughtUp(): Promise<boolean>;
  close(): Promise<void>;
}

/** The newest installed PostgreSQL's binaries (Debian keeps them out of PATH). */
function postgresBin(): string {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  return join("/usr/lib/postgresql", versions[0]!, "bin");
}

function postgresTool(tool: string, args: string[]): Promise<{ stdout: string }> {
  return run(...asPostgresUser(join(postgresBin(), tool), args), { timeout: 60_000 });
}

export async function startStreamingCluster(): Promise<StreamingCluster> {
  const folder = mkdtempSync(join(tmpdir(), "directory-cluster-"));
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    chownSync(folder, Number(stdout), Number(group));
  }
  const [primaryPort, replicaPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  const primaryDir = join(folder, "primary");
  const replicaDir = join(folder, "replica");
  // Loopback only, sockets in our own folder, no fsync (a test's data need not survive a crash).
  const options = (port: number) => `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${folder} -c fsync=off -c full_page_writes=off`;
  const pgCtl = (dir: string, ...args: string[]) => postgresTool("pg_ctl", ["-D", dir, "-l", `${dir}.log`, "-w", "-t", "60", ...args]);
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const replicaQuery = async (statement: string) => {
    const client = postgres(url(replicaPort, "postgres"), { max: 1, onnotice: () => {} });
    try {
      return await client.unsafe(statement);
    } finally {
      await client.end();
    }
  };

  try {
    await postgresTool("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"]);
    await pgCtl(primaryDir, "-o", options(primaryPort), "start");
    await postgresTool("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-R", "-X", "stream", "--no-sync"]);
    await pgCtl(replicaDir, "-o", options(replicaPort), "start");
  } catch (error) {
    await stopAll();
    throw error;
  }

  async function stopAll(): Promise<void> {
    for (const dir of [replicaDir, primaryDir]) await pgCtl(dir, "-m", "immediate", "stop").catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  }

  return {
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(replicaPort, database),
    stopReplica: async () => {
      await pgCtl(replicaDir, "-m", "fast", "stop");
    },
    startReplica: async () => {
      await pgCtl(replicaDir, "-o", options(replicaPort), "start");
    },
    pauseReplay: async () => {
      await replicaQuery("select pg_wal_replay_pause()");
    },
    resumeReplay: async () => {
      await replicaQuery("select pg_wal_replay_resume()");
    },
    caughtUp: async () => {
      const primary = postgres(url(primaryPort, "postgres"), { max: 1, onnotice: () => {} });
      try {
        const [{ written }] = (await primary`select pg_current_wal_insert_lsn()::text as written`) as unknown as [{ written: string }];
        const [{ done }] = (await replicaQuery(`select pg_last_wal_replay_lsn() >= '${written}'::pg_lsn as done`)) as unknown as [{ done: boolean }];
        return done;
      } finally {
        await primary.end();
      }
    },
    close: stopAll,
  };
}
