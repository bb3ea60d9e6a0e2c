import postgres from "postgres";

/**
 * A test file's set-up and tear-down that wait on the PostgreSQL server (for a world another file
 * is building under its lock, for its database to be copied or dropped) are bounded here, below
 * vitest's 180 s hook timeout. Past the bound the wait fails with what the server's sessions were
 * doing, where a hook timeout says only that time ran out: a set-up stuck behind another session
 * is then named.
 */
export const SERVER_WAIT_LIMIT_MS = 150_000;

/** `work`, or past `limitMs` an error naming `what` and the server's sessions at that moment. */
export async function boundedServerWait<T>(serverUrl: string, what: string, work: Promise<T>, limitMs = SERVER_WAIT_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void describeServerSessions(serverUrl).then((sessions) =>
        reject(new Error(`${what}: still waiting after ${Math.round(limitMs / 1000)} s. The server's sessions then:\n${sessions}`)),
      );
    }, limitMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

interface SessionRow {
  pid: number;
  datname: string | null;
  state: string | null;
  wait: string | null;
  blocked_by: number[];
  advisory_locks: number;
  seconds: number | null;
  query: string | null;
}

/** The server's client sessions, busiest and oldest first: enough to see who blocks whom. */
export async function describeServerSessions(serverUrl: string): Promise<string> {
  // Bounded too: a server too stuck to answer must not turn the diagnosis into another hang.
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {}, connect_timeout: 10, connection: { statement_timeout: 10_000 } });
  try {
    const [connections] = await admin<{ used: number; limit: number }[]>`
      select count(*)::int as used, current_setting('max_connections')::int as limit from pg_stat_activity where backend_type = 'client backend'`;
    const rows = await admin<SessionRow[]>`
      select a.pid, a.datname, a.state, concat_ws(':', a.wait_event_type, a.wait_event) as wait, pg_blocking_pids(a.pid) as blocked_by,
        (select count(*)::int from pg_locks l where l.pid = a.pid and l.locktype = 'advisory' and l.granted) as advisory_locks,
        extract(epoch from now() - coalesce(a.xact_start, a.state_change))::int as seconds, left(a.query, 120) as query
      from pg_stat_activity a
      where a.backend_type = 'client backend' and a.pid <> pg_backend_pid()
      order by (a.state = 'idle'), seconds desc nulls last
      limit 15`;
    const lines = rows.map(
      (row) =>
        `  pid ${row.pid} db ${row.datname} ${row.state} ${row.seconds ?? "?"} s` +
        (row.wait && row.state !== "idle" ? ` waiting on ${row.wait}` : "") +
        (row.blocked_by.length ? ` blocked by ${row.blocked_by.join(",")}` : "") +
        (row.advisory_locks ? ` holding ${row.advisory_locks} advisory lock(s)` : "") +
        `: ${row.query ?? ""}`,
    );
    return [`  ${connections?.used} of ${connections?.limit} connections in use`, ...lines].join("\n");
  } catch (error) {
    return `  (the sessions could not be read: ${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await admin.end({ timeout: 5 });
  }
}
