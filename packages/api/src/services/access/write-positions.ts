import { createHash } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { callerWritePositions, parseWalPosition, rowsOf, type Db, type WalPosition } from "@directory/db";
import { sessionCookieValue } from "../accounts/account-auth";

/**
 * Read-your-writes behind read replicas. After a caller's write commits, the primary's WAL insert
 * position is kept for that caller (on the primary, so every app instance sees it); a read of theirs
 * goes only to a replica that has replayed past it. Chosen over a time window after each write: a
 * window is a guess (too short loses the write under lag, too long sends reads to the primary for
 * nothing), while a position is exact and costs one primary-key read per replica-routed request.
 */

/** Positions older than this are deleted; a replica this far behind has long been skipped as lagging. */
const KEPT_FOR = "1 hour";

export interface WriteCaller {
  apiKey: { id: string } | null;
  cookieHeader: string | null;
  clientIp: string | null;
}

/** Who reads their own writes: the key, else the signed-in session, else the address; hashed, as it is kept at rest. */
export function writeCallerId(caller: WriteCaller): string | null {
  const session = sessionCookieValue(caller.cookieHeader);
  const identity = caller.apiKey ? `key:${caller.apiKey.id}` : session ? `session:${session}` : caller.clientIp ? `ip:${caller.clientIp}` : null;
  return identity && createHash("sha256").update(identity).digest("base64url");
}

/** Records that the caller's writes so far end at the primary's current insert position. */
export async function recordWritePosition(primary: Db, callerId: string): Promise<void> {
  await primary.execute(sql`
    insert into caller_write_positions (caller, wal_position, written_at)
    values (${callerId}, pg_current_wal_insert_lsn()::text, now())
    on conflict (caller) do update set wal_position = excluded.wal_position, written_at = excluded.written_at`);
}

/** Where the caller's last write ended, or null when they have written nothing lately. */
export async function writePositionOf(primary: Db, callerId: string): Promise<WalPosition | null> {
  const [row] = rowsOf<{ position: string }>(
    await primary.execute(
      sql`select wal_position as position from caller_write_positions where caller = ${callerId} and written_at > now() - ${KEPT_FOR}::interval`,
    ),
  );
  return row ? parseWalPosition(row.position) : null;
}

/** The periodic clean-up: positions past keeping. */
export async function deleteOldWritePositions(primary: Db): Promise<number> {
  const deleted = await primary
    .delete(callerWritePositions)
    .where(lt(callerWritePositions.writtenAt, sql`now() - ${KEPT_FOR}::interval`))
    .returning({ caller: callerWritePositions.caller });
  return deleted.length;
}
