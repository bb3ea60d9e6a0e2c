import type { WalPosition } from "./wal-position";

/** How long the primary's positions are remembered; a replica further behind reports at least this. */
const REMEMBERED_MS = 15 * 60 * 1000;

/**
 * When the primary first reached each position it was seen at (sampled once per poll), so a
 * replica's lag is a time: how long ago the primary wrote the oldest change the replica has not
 * replayed. Unlike now() - pg_last_xact_replay_timestamp(), an idle primary does not make an
 * up-to-date replica look behind, and a replica that stopped receiving looks behind as soon as
 * the primary writes.
 */
export class LagClock {
  private readonly seen: { position: WalPosition; at: number }[] = [];

  /** Records the primary's position at a poll. */
  observePrimary(position: WalPosition, at: number): void {
    const last = this.seen.at(-1);
    if (!last || position > last.position) this.seen.push({ position, at });
    while (this.seen.length > 1 && this.seen[0]!.at < at - REMEMBERED_MS) this.seen.shift();
  }

  /** Milliseconds a replica that has replayed up to `replayed` is behind at `now`; 0 when it has all the primary was seen to write. */
  lagMs(replayed: WalPosition, now: number): number {
    const firstMissing = this.seen.find((entry) => entry.position > replayed);
    return firstMissing ? Math.max(0, now - firstMissing.at) : 0;
  }
}
