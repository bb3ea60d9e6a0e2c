import { recordWritePosition, writeCallerId, writePositionOf } from "../services/access/write-positions";
import { t } from "./trpc-instance";

/*
 * Where a procedure's reads go when read replicas serve (DATABASE_REPLICA_URLS). Writes, limits
 * and quotas always use ctx.db, the primary. A procedure whose answer may be a little behind
 * (search, listings, profiles, the partner feed, the knowledge graph, pages) is built with
 * `replicaReads` and reads through ctx.readDb; every other read stays on the primary.
 */

/**
 * Gives the procedure ctx.readDb: a healthy replica that has replayed the caller's own last write,
 * taken in turn; the primary when none is configured or usable.
 */
export const replicaReads = t.middleware(async ({ ctx, type, next }) => {
  const replicas = ctx.readReplicas;
  // A replica refuses writes: a mutation built with this by mistake still reads on the primary.
  if (!replicas || type !== "query") return next({ ctx: { readDb: ctx.db } });
  const callerId = writeCallerId(ctx);
  const mustInclude = callerId ? await writePositionOf(ctx.db, callerId) : null;
  return next({ ctx: { readDb: replicas.pick(mustInclude) ?? ctx.db } });
});

/**
 * After a mutation succeeds (its transaction committed), records where the caller's writes end, so
 * their next replica-routed read waits for a replica that has them. Failing to record it does not
 * fail the write, which is done: that caller may read from a replica behind it, once.
 */
export const recordCallerWrites = t.middleware(async ({ ctx, type, next }) => {
  const result = await next();
  if (type !== "mutation" || !result.ok || !ctx.readReplicas) return result;
  const callerId = writeCallerId(ctx);
  if (!callerId) return result;
  try {
    await recordWritePosition(ctx.db, callerId);
  } catch (error) {
    ctx.log.warn({ err: error }, "read-your-writes: the write position could not be recorded");
  }
  return result;
});
