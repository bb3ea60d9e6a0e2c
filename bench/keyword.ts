/* Keyword search through the built server's tRPC door (search.searchKeyword, the search_by_keyword tool): under load, then each query alone. */
import { runLoad } from "./load";
import { stop } from "./processes";
import { seconds, startServer } from "./settings";

/** Free-text queries an agent might send: services, names, misspellings, with and without a city. */
const KEYWORD_QUERIES = [
  { query: "root canal", city: "Mumbai" },
  { query: "emergency plumber" },
  { query: "wedding photography", city: "London" },
  { query: "tax returns bookkeeping" },
  { query: "teeth whitening", city: "Delhi" },
  { query: "vegetarian menu private dining" },
  { query: "dentst" },
  { query: "family law", city: "Istanbul" },
];

/** The queries as tRPC GET paths, 10 listings each. */
export const keywordPaths = () =>
  KEYWORD_QUERIES.map((input) => `/trpc/search.searchKeyword?input=${encodeURIComponent(JSON.stringify({ json: { ...input, limit: 10 } }))}`);

export async function benchKeyword(note: (line: string) => void): Promise<void> {
  const port = 3970;
  const app = await startServer(port);
  try {
    const paths = keywordPaths();
    await runLoad(`http://127.0.0.1:${port}`, paths, { connections: 4, seconds: 3 });
    const result = await runLoad(`http://127.0.0.1:${port}`, paths, { connections: 4, seconds });
    note("");
    note("## Keyword search (tRPC search.searchKeyword, the search_by_keyword tool; 4 connections)");
    note("");
    note(
      `- ${result.rps} req/s; p50 ${result.p50} ms, p90 ${result.p90} ms, **p95 ${result.p95} ms**, p97.5 ${result.p97_5} ms, **p99 ${result.p99} ms** (target p95 < 30 ms, p99 < 60 ms: ${result.p95 < 30 && result.p99 < 60 ? "holds" : "missed"}; no limit server for this row); ${result.non2xx + result.errors} failures`,
    );
    note("");
    note("| query, one at a time (10 each) | median ms | slowest ms | listings |");
    note("|---|---|---|---|");
    for (const [index, input] of KEYWORD_QUERIES.entries()) {
      const timing = await timeOneByOne(`http://127.0.0.1:${port}${paths[index]}`, 10);
      note(`| ${input.query}${input.city ? ` (${input.city})` : ""} | ${timing.medianMs} | ${timing.slowestMs} | ${timing.listings} |`);
    }
  } finally {
    await stop(app.child);
  }
}

/** Sequential requests to one tRPC query: which of the queries makes the tail. */
async function timeOneByOne(url: string, times: number): Promise<{ medianMs: number; slowestMs: number; listings: number }> {
  const elapsed: number[] = [];
  let listings = 0;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const body = (await (await fetch(url)).json()) as { result: { data: { json: { businesses: unknown[] } } } };
    elapsed.push(performance.now() - started);
    listings = body.result.data.json.businesses.length;
  }
  elapsed.sort((a, b) => a - b);
  return { medianMs: Math.round(elapsed[Math.floor(times / 2)] ?? 0), slowestMs: Math.round(elapsed.at(-1) ?? 0), listings };
}
