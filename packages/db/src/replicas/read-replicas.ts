import { sql } from "drizzle-orm";
import type { Database, Db } from "../client";
import { rowsOf } from "../rows";
import { LagClock } from "./lag-clock";
import { parseWalPosition, type WalPosition } from "./wal-position";

/** ok: serves reads; lagging: further behind than REPLICA_MAX_LAG_MS; down: unreachable, or not a standby. */
export type ReplicaState = "ok" | "lagging" | "down";

export interface ReplicaStatus {
  /** host:port/database, never the password: the label /healthz and /metrics show. */
  replica: string;
  state: ReplicaState;
  /** How long ago the primary wrote the oldest change this replica has not replayed; null while down. */
  lagMs: number | null;
}

export interface ReadReplicaSettings {
  /** A replica further behind than this is skipped until it catches up (REPLICA_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the primary's position and each replica's replay position are read. */
  pollIntervalMs: number;
}

export const DEFAULT_READ_REPLICA_SETTINGS: ReadReplicaSettings = { maxLagMs: 5_000, pollIntervalMs: 500 };

interface Replica extends ReplicaStatus {
  database: Database;
  /** The replay position at the last poll; null while down. */
  replayed: WalPosition | null;
}

/** The label of a database URL: host, port and database, without user or password. */
export function replicaLabel(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
}

/**
 * The read replicas of one primary, watched from this process. Every poll reads the primary's
 * write position and each replica's replay position (one small query each), so choosing a replica
 * for a read costs no round trip. A read that must include a given write (the caller's own, see
 * procedures/read-routing.ts) goes only to a replica that had replayed past it at the last poll;
 * when no replica is usable, pick() answers null and the primary serves.
 */
export class ReadReplicas {
  private readonly replicas: Replica[];
  private readonly clock = new LagClock();
  private readonly reads = new Map<string, number>();
  private turn = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly primary: Database,
    replicas: { label: string; database: Database }[],
    private readonly settings: ReadReplicaSettings = DEFAULT_READ_REPLICA_SETTINGS,
  ) {
    this.replicas = replicas.map(({ label, database }) => ({ replica: label, database, state: "down", lagMs: null, replayed: null }));
  }

  /** Polls once (so the first request already knows each replica's state), then every pollIntervalMs. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.settings.pollIntervalMs);
    this.timer.unref();
  }

  /** Reads every position now; concurrent calls share one poll. */
  poll(): Promise<void> {
    this.polling ??= this.readPositions().finally(() => (this.polling = undefined));
    return this.polling;
  }

  statuses(): ReplicaStatus[] {
    return this.replicas.map(({ replica, state, lagMs }) => ({ replica, state, lagMs }));
  }

  /** Reads routed so far, by replica label and "primary". */
  readsServed(): ReadonlyMap<string, number> {
    return this.reads;
  }

  /**
   * A usable replica's handle, taken in turn, that had replayed at least `mustInclude` (null: any
   * usable one); null when none is, and the read goes to the primary.
   */
  pick(mustInclude: WalPosition | null): Db | null {
    const usable = this.replicas.filter(
      (replica) => replica.state === "ok" && replica.replayed !== null && (mustInclude === null || replica.replayed >= mustInclude),
    );
    const chosen = usable.length > 0 ? usable[this.turn++ % usable.length]! : null;
    const label = chosen?.replica ?? "primary";
    this.reads.set(label, (this.reads.get(label) ?? 0) + 1);
    return chosen?.database.db ?? null;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await Promise.all(this.replicas.map((replica) => replica.database.close()));
  }

  private async readPositions(): Promise<void> {
    try {
      const [row] = rowsOf<{ position: string }>(await this.primary.db.execute(sql`select pg_current_wal_insert_lsn()::text as position`));
      if (row) this.clock.observePrimary(parseWalPosition(row.position), Date.now());
    } catch {
      // The primary is down: the replicas' lag is measured against what it was last seen to write.
    }
    await Promise.all(this.replicas.map((replica) => this.readReplica(replica)));
  }

  private async readReplica(replica: Replica): Promise<void> {
    try {
      const [row] = rowsOf<{ standby: boolean; replayed: string | null }>(
        await replica.database.db.execute(sql`select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed`),
      );
      // A server that is not a standby (promoted, or a wrong URL) would serve reads that never follow the primary.
      if (!row?.standby || row.replayed === null) throw new Error("not a standby");
      replica.replayed = parseWalPosition(row.replayed);
      replica.lagMs = this.clock.lagMs(replica.replayed, Date.now());
      replica.state = replica.lagMs > this.settings.maxLagMs ? "lagging" : "ok";
    } catch {
      Object.assign(replica, { state: "down", lagMs: null, replayed: null });
    }
  }
}
