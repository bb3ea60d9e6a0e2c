import { readFileSync } from "node:fs";

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
}

/** Walks the whole partner feed by cursor, one page at a time, as a partner would. */
export async function walkFeed(baseUrl: string, key: string, serverPid: number, limit = 500): Promise<FeedWalk> {
  let cursor: string | null = null;
  let rows = 0;
  let pages = 0;
  let total = 0;
  let slowest = 0;
  const samples: number[] = [];
  const marks = [0.1, 0.5];
  const started = performance.now();
  do {
    const pageStarted = performance.now();
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${baseUrl}/api/v2/partner-feed?${query}`, { headers: { authorization: `Bearer ${key}` } });
    if (response.status !== 200) throw new Error(`feed page ${pages} answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as { total: number; nextCursor: string | null; locations: unknown[] };
    slowest = Math.max(slowest, performance.now() - pageStarted);
    total = page.total;
    rows += page.locations.length;
    pages++;
    cursor = page.nextCursor;
    if (marks.length > 0 && rows >= total * marks[0]!) {
      marks.shift();
      samples.push(memoryOf(serverPid).rssMb);
    }
  } while (cursor);
  const seconds = (performance.now() - started) / 1000;
  const end = memoryOf(serverPid);
  samples.push(end.rssMb);
  return { rows, pages, seconds, rowsPerSecond: Math.round(rows / seconds), rssSamplesMb: samples, peakMb: end.peakMb, slowestPageMs: Math.round(slowest) };
}

/** One page fetched at a given offset, timed: how offset paging degrades with depth. */
export async function timeOffsetPage(baseUrl: string, key: string, offset: number, limit = 500): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v2/partner-feed?limit=${limit}&offset=${offset}`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return Math.round(performance.now() - started);
}
