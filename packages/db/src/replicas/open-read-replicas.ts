import { createDatabase, type Database, type DatabaseTimeouts } from "../client";
import { DEFAULT_READ_REPLICA_SETTINGS, ReadReplicas, replicaLabel, type ReadReplicaSettings } from "./read-replicas";

export interface ReadReplicaOptions extends Partial<ReadReplicaSettings> {
  /** DATABASE_REPLICA_URLS: each a streaming replica of the primary. */
  urls: string[];
  timeouts?: Partial<DatabaseTimeouts>;
}

/** Connects to each replica and starts watching them; null when none is configured (reads stay on the primary). */
export async function openReadReplicas(primary: Database, options: ReadReplicaOptions): Promise<ReadReplicas | null> {
  if (options.urls.length === 0) return null;
  if (primary.driver !== "postgres") throw new Error("DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database has no replicas");
  const replicas = await Promise.all(
    options.urls.map(async (url) => ({ label: replicaLabel(url), database: await createDatabase({ url, timeouts: options.timeouts }) })),
  );
  const readReplicas = new ReadReplicas(primary, replicas, {
    maxLagMs: options.maxLagMs ?? DEFAULT_READ_REPLICA_SETTINGS.maxLagMs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_READ_REPLICA_SETTINGS.pollIntervalMs,
  });
  await readReplicas.start();
  return readReplicas;
}
