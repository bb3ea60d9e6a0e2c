import { readFileSync } from "node:fs";
import postgres from "postgres";

/** Resident and peak memory of a process, from /proc (Linux). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

export interface FeedWalk {
  rows: number;
  pages: number;
  seconds: number;
  rowsPerSecond: number;
  /** Server RSS sampled at 10%, 50% and 100% of the walk: flat memory means these stay close. */
  rssSamplesMb: number[];
  peakMb: number;
  slowestPageMs: number;
  pageP50Ms: number;
  pageP90Ms: number;
  pageP99Ms: number;
}

/**
 * How a bench client asks for a feed body: as fetch does by default (gzip, inflated as it streams
 * in), or as it is (identity): on loopback compression only spends CPU at both ends, and a partner
 * copying the feed inside the same network asks for it as the export bench reads the export.
 */
export type FeedEncoding = "gzip" | "identity";

export function feedHeaders(key: string, encoding: FeedEncoding): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...(encoding === "identity" ? { "accept-encoding": "identity" } : {}) };
}

/**
 * How a bench client follows a feed's pages. Sequential: it asks for the next page once it has
 * parsed this one. Pipelined: it asks for the next page as soon as this one's headers arrive (the
 * Link header names it, rel="next"), then reads and parses this one, so the server reads the next
 * page while the client parses this one; the client still parses every page.
 */
export type PageFollowing = "sequential" | "pipelined";

/** The address a Link header names as rel="next", on `baseUrl` (the server's public origin may differ on loopback); null without one. */
function nextAddress(baseUrl: string, link: string | null): string | null {
  const target = link === null ? null : /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
  if (!target) return null;
  const url = new URL(target);
  return `${baseUrl}${url.pathname}${url.search}`;
}

/** CPU time of a process so far, user and system, in milliseconds, from /proc (Linux). */
export function cpuMsOf(pid: number): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Every page of a feed from `path`, parsed (or as `read` reads it), following the Link header as `following` says. */
export async function* feedPages<T>(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  following: PageFollowing,
  read: (response: Response) => Promise<T> = async (response) => (await response.json()) as T,
): AsyncGenerator<T> {
  let pending: Promise<Response> | null = fetch(`${baseUrl}${path}`, { headers });
  for (let pages = 0; pending !== null; pages++) {
    const response: Response = await pending;
    if (response.status !== 200) throw new Error(`feed page ${pages} answered ${response.status}: ${await response.text()}`);
    const next = nextAddress(baseUrl, response.headers.get("link"));
    pending = next !== null && following === "pipelined" ? fetch(next, { headers }) : null;
    yield await read(response);
    if (next !== null && following === "sequential") pending = fetch(next, { headers });
  }
}

/** Walks the whole partner feed by cursor, as a partner would, parsing each page. */
export async function walkFeed(
  baseUrl: string,
  key: string,
  serverPid: number,
  limit = 500,
  encoding: FeedEncoding = "gzip",
  following: PageFollowing = "sequential",
): Promise<FeedWalk> {
  let rows = 0;
  let pages = 0;
  let slowest = 0;
  const pageMs: number[] = [];
  const samples: number[] = [];
  const marks = [0.1, 0.5];
  const started = performance.now();
  let pageStarted = started;
  for await (const page of feedPages<{ total: number; locations: unknown[] }>(
    baseUrl,
    `/api/v2/partner-feed?limit=${limit}`,
    feedHeaders(key, encoding),
    following,
  )) {
    // A page's time: from the end of the one before (pipelined, its request went out earlier).
    const now = performance.now();
    pageMs.push(now - pageStarted);
    slowest = Math.max(slowest, now - pageStarted);
    pageStarted = now;
    rows += page.locations.length;
    pages++;
    if (marks.length > 0 && rows >= page.total * marks[0]!) {
      marks.shift();
      samples.push(memoryOf(serverPid).rssMb);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const end = memoryOf(serverPid);
  samples.push(end.rssMb);
  pageMs.sort((a, b) => a - b);
  const percentile = (p: number) => Math.round(pageMs[Math.min(pageMs.length - 1, Math.floor(pageMs.length * p))] ?? 0);
  return {
    rows,
    pages,
    seconds,
    rowsPerSecond: Math.round(rows / seconds),
    rssSamplesMb: samples,
    peakMb: end.peakMb,
    slowestPageMs: Math.round(slowest),
    pageP50Ms: percentile(0.5),
    pageP90Ms: percentile(0.9),
    pageP99Ms: percentile(0.99),
  };
}

/** One page fetched at a given offset, timed: how offset paging degrades with depth. */
export async function timeOffsetPage(baseUrl: string, key: string, offset: number, limit = 500): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v2/partner-feed?limit=${limit}&offset=${offset}`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return Math.round(performance.now() - started);
}

/**
 * The feed's limit: the raw columns the JSON-LD needs, in feed order, streamed by
 * `COPY (...) TO STDOUT` over the same rows the feed serves (verified, active, unexpired).
 */
export async function copyFeedRate(databaseUrl: string): Promise<{ rows: number; seconds: number; rowsPerSecond: number }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const started = performance.now();
    const stream = await sql`copy (
      select b.id, b.slug, b.name, b.description, b.website, b.phone, b.email, b.address, t.name, b.state, b.postal_code, b.country,
        b.lat, b.lng, b.opening_hours, b.rating, b.review_count, b.services, b.updated_at, c.schema_org_type
      from businesses b join categories c on c.slug = b.category_slug join cities t on t.id = b.city_id
      where b.status = 'active' and (b.subscription_expires_at is null or b.subscription_expires_at > now()) and b.ownership = 'owner_verified'
      order by b.updated_at, b.id
    ) to stdout`.readable();
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    }
    const seconds = (performance.now() - started) / 1000;
    return { rows, seconds, rowsPerSecond: Math.round(rows / seconds) };
  } finally {
    await sql.end();
  }
}
