/**
 * Citation checks on the BENCH_DATABASE_URL world (issue 44): (a) checks per minute through the
 * stand-in engine on loopback (the compatible adapter, the queue and the ingestion as the worker
 * runs them), a fixed number of checks with the default concurrency; (b) the cost of ingesting one
 * answer naming five businesses of the largest city, each in its own transaction, rolled back; (c)
 * the schedule's pick of the day's pairs over the whole world, rolled back. The
 * world is left as found: part (a)'s checks, documents, mentions, edge weights, scores and spend
 * are undone. Runs alone (`pnpm exec tsx bench/citations.ts`) or as a section of bench/run.ts.
 */
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import {
  citationSettingsOf,
  citationVariables,
  contentHash,
  enqueueChecks,
  parseCitationEngines,
  runDueChecks,
  scheduleChecks,
  storeDocuments,
  type IncomingDocument,
} from "@directory/api";
import { startEngineStandIn } from "@directory/api/testing";
import { createDatabase, forChores, migrate, rowsOf, type Db } from "@directory/db";

/** As many checks as the default daily budget (CITATION_CHECKS_PER_DAY) spends. */
const CHECKS = Number(process.env.BENCH_CITATION_CHECKS ?? 200);
const INGEST_SAMPLES = Number(process.env.BENCH_CITATION_INGESTS ?? 40);
/** The checks' day: far from any real one, so its budget row and documents are the bench's alone. */
const BENCH_DAY = new Date("2001-01-01T12:00:00Z");
const NAMED_PER_ANSWER = 5;
const SCHEDULE_SAMPLES = 5;

interface Pair {
  cityId: number;
  cityName: string;
  countryCode: string;
  categorySlug: string;
  categoryName: string;
  names: string[];
}

function answerNaming(names: readonly string[]): string {
  return `Here are some well-reviewed options. ${names.map((name, index) => `${index + 1}. ${name} is a good choice.`).join(" ")} Compare prices before you call.`;
}

/** The largest pairs of a category and a city, each with the names of its first businesses. */
async function largestPairs(db: Db, count: number, where = sql`true`): Promise<Pair[]> {
  const rows = rowsOf<{ city_id: number; city_name: string; country_code: string; category_slug: string; category_name: string; names: string[] }>(
    await db.execute(sql`
      with pairs as (
        select b.city_id, b.category_slug from businesses b join cities c on c.id = b.city_id where ${where}
        group by b.city_id, b.category_slug order by count(*) desc, b.city_id, b.category_slug limit ${count}
      )
      select p.city_id, c.name as city_name, c.country_code, p.category_slug, k.name as category_name,
             array(select b.name from businesses b where b.city_id = p.city_id and b.category_slug = p.category_slug
                   order by b.id limit ${NAMED_PER_ANSWER}) as names
      from pairs p join cities c on c.id = p.city_id join categories k on k.slug = p.category_slug`),
  );
  return rows.map((row) => ({
    cityId: row.city_id,
    cityName: row.city_name,
    countryCode: row.country_code,
    categorySlug: row.category_slug,
    categoryName: row.category_name,
    names: row.names,
  }));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

/** (a): the checks through the stand-in, then everything they wrote undone. */
async function checksPerMinute(db: Db, note: (line: string) => void): Promise<void> {
  const pairs = await largestPairs(db, CHECKS);
  const standIn = await startEngineStandIn();
  const model = `bench-${process.pid}-${Date.now()}`;
  // The service's defaults (timeout, concurrency) as CITATION_* would give them unset.
  const settings = citationSettingsOf({
    CITATION_ENGINES: parseCitationEngines(`compatible:${model}@${standIn.baseURL}`),
    CITATION_CHECKS_PER_DAY: CHECKS,
    CITATION_TIMEOUT_MS: citationVariables.CITATION_TIMEOUT_MS.parse(undefined),
    CITATION_CONCURRENCY: citationVariables.CITATION_CONCURRENCY.parse(undefined),
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
    GOOGLE_GENERATIVE_AI_API_KEY: undefined,
    PERPLEXITY_API_KEY: undefined,
    CITATION_COMPATIBLE_API_KEY: undefined,
  });
  const pairKeys = sql.join(
    pairs.map((pair) => sql`(${pair.cityId}::int, ${pair.categorySlug}::text)`),
    sql`, `,
  );
  // The scores the new answers may change: businesses named in their contexts before, and those of their cities they will name.
  const names = pairs.flatMap((pair) => pair.names);
  const saved = rowsOf<{ id: string; score: number }>(
    await db.execute(sql`
      select b.id, b.visibility_score as score from businesses b
      where b.id in (select m.business_id from document_mentions m where (m.city_id, m.category_slug) in (${pairKeys}))
         or (b.city_id = any(${`{${[...new Set(pairs.map((pair) => pair.cityId))].join(",")}}`}::int[]) and lower(b.name) = any(${textArray(names.map((name) => name.toLowerCase()))}::text[]))`),
  );
  try {
    const answers = new Map<string, string>();
    for (const pair of pairs) {
      const [check] = await enqueueChecks(db, pair, settings.engines, BENCH_DAY);
      answers.set(check!.query, answerNaming(pair.names));
    }
    standIn.respond = (question) => {
      const answer = answers.get(question);
      return answer === undefined ? undefined : { answer, citations: ["https://example.com/guide"] };
    };
    const started = performance.now();
    const run = await runDueChecks(db, { settings, now: () => BENCH_DAY });
    const seconds = (performance.now() - started) / 1000;
    const done = run.checks.filter((check) => check.status === "done").length;
    const [mentions] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from document_mentions m join documents d on d.id = m.document_id where d.model = ${model}`),
    );
    note("");
    note("## Citation checks (stand-in engine on loopback: the compatible adapter, the queue, the ingestion)");
    note("");
    note(
      `- ${run.checks.length} checks of the ${pairs.length} largest pairs, CITATION_CONCURRENCY ${settings.concurrency} (the default), one engine: ${seconds.toFixed(1)} s, **${Math.round((done / seconds) * 60).toLocaleString("en")} checks/min**; ${done} done, ${Number(mentions?.n ?? 0)} mentions stored; stand-in calls in flight at most ${standIn.maxInFlight}`,
    );
  } finally {
    await standIn.close();
    await undoChecks(db, model, saved);
  }
}

async function undoChecks(db: Db, model: string, saved: readonly { id: string; score: number }[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`
      with pairs as (
        select a.business_id as business_a, b.business_id as business_b, count(*)::int as n
        from documents d join document_mentions a on a.document_id = d.id
        join document_mentions b on b.document_id = d.id and a.business_id < b.business_id
        where d.model = ${model} group by 1, 2
      ),
      lowered as (
        update co_mention_edges e set weight = e.weight - p.n from pairs p
        where e.business_a = p.business_a and e.business_b = p.business_b returning e.business_a, e.business_b, e.weight
      )
      delete from co_mention_edges e using lowered l where e.business_a = l.business_a and e.business_b = l.business_b and l.weight <= 0`);
    await tx.execute(sql`delete from citation_checks where model = ${model}`);
    await tx.execute(sql`delete from document_mentions where document_id in (select id from documents where model = ${model})`);
    await tx.execute(sql`delete from documents where model = ${model}`);
    await tx.execute(sql`delete from citation_daily_spend where day = ${BENCH_DAY.toISOString().slice(0, 10)}::date`);
    if (saved.length > 0) {
      await tx.execute(sql`
        update businesses b set visibility_score = s.score
        from unnest(${`{${saved.map((row) => row.id).join(",")}}`}::uuid[], ${`{${saved.map((row) => row.score).join(",")}}`}::int[]) as s(id, score)
        where b.id = s.id and b.visibility_score <> s.score`);
    }
  });
}

class RolledBack extends Error {}

/** Runs `work` in a transaction that is then rolled back, so the world is left as found. */
async function inRolledBackTransaction(db: Db, work: (tx: Db) => Promise<void>): Promise<void> {
  await db
    .transaction(async (tx) => {
      await work(tx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
}

/** (c): the schedule's pick of the day's pairs over the whole world, in a transaction rolled back. */
async function scheduleCost(db: Db, note: (line: string) => void): Promise<void> {
  const engines = parseCitationEngines("compatible:bench-schedule@http://127.0.0.1:9/v1");
  const timings: number[] = [];
  let queued = 0;
  for (let sample = 0; sample < SCHEDULE_SAMPLES; sample += 1) {
    await inRolledBackTransaction(db, async (tx) => {
      const started = performance.now();
      queued = (await scheduleChecks(tx, { engines, checksPerDay: CHECKS, now: BENCH_DAY })).length;
      timings.push(performance.now() - started);
    });
  }
  const sorted = [...timings].sort((a, b) => a - b);
  note(
    `- The schedule's pick of the day's pairs over the whole world (scheduleChecks, a budget of ${CHECKS}, one engine: ${queued} pairs queued), rolled back: **median ${percentile(sorted, 0.5).toFixed(1)} ms** of ${SCHEDULE_SAMPLES}; it runs only while the day's budget is not all queued, in practice in the first minute of a UTC day`,
  );
}

/** (b): one answer stored through the ingestion, in a transaction rolled back, INGEST_SAMPLES times. */
async function ingestCost(db: Db, note: (line: string) => void): Promise<void> {
  const [largest] = rowsOf<{ id: number; name: string; listings: number }>(
    await db.execute(sql`
      select c.id, c.name, (select count(*)::int from businesses b where b.city_id = c.id) as listings
      from cities c where exists (select 1 from businesses b where b.city_id = c.id) order by c.population desc limit 1`),
  );
  const pairs = (await largestPairs(db, INGEST_SAMPLES, sql`b.city_id = ${largest!.id}`)).filter((pair) => pair.names.length >= 2);
  const timings: number[] = [];
  const touched = { mentions: 0, edges: 0, scores: 0 };
  for (let sample = 0; sample < INGEST_SAMPLES; sample += 1) {
    const pair = pairs[sample % pairs.length]!;
    const document: IncomingDocument = {
      kind: "ai_answer",
      source: "bench:citations",
      engine: "compatible",
      model: "bench-ingest",
      query: `Who is the best ${pair.categoryName.toLowerCase()} in ${pair.cityName}?`,
      fetchedAt: new Date(BENCH_DAY.getTime() + sample),
      language: "en",
      cityId: pair.cityId,
      categorySlug: pair.categorySlug,
      body: answerNaming(pair.names),
    };
    await inRolledBackTransaction(db, async (tx) => {
      const before = await scoresOf(tx, pair);
      const started = performance.now();
      const stored = await storeDocuments(tx, { batch: [document] });
      timings.push(performance.now() - started);
      const id = stored.storedIds.get(contentHash(document))!;
      const [edges] = rowsOf<{ n: number }>(
        await tx.execute(sql`
            select count(*)::int as n from document_mentions a join document_mentions b on b.document_id = a.document_id and a.business_id < b.business_id
            where a.document_id = ${id}`),
      );
      const after = await scoresOf(tx, pair);
      touched.mentions += stored.mentions;
      touched.edges += Number(edges?.n ?? 0);
      touched.scores += [...after].filter(([business, score]) => before.get(business) !== score).length;
    });
  }
  const sorted = [...timings].sort((a, b) => a - b);
  const per = (total: number) => (total / INGEST_SAMPLES).toFixed(1);
  note(
    `- Ingesting one answer naming ${NAMED_PER_ANSWER} businesses of ${largest!.name} (${largest!.listings.toLocaleString("en")} listings; ${pairs.length} of its categories in turn), its own transaction, rolled back: **median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms** over ${INGEST_SAMPLES} answers; rows touched per answer: 1 document, ${per(touched.mentions)} mentions, ${per(touched.edges)} co-mention edges, ${per(touched.scores)} visibility scores changed`,
  );
}

/** The scores of the pair's businesses: the context an answer's ingestion recomputes. */
async function scoresOf(db: Db, pair: Pair): Promise<Map<string, number>> {
  const rows = rowsOf<{ id: string; score: number }>(
    await db.execute(sql`select id, visibility_score as score from businesses where city_id = ${pair.cityId} and category_slug = ${pair.categorySlug}`),
  );
  return new Map(rows.map((row) => [row.id, row.score]));
}

/** A PostgreSQL array literal of texts, each quoted. */
function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
}

export async function benchCitations(databaseUrl: string, note: (line: string) => void): Promise<void> {
  const database = await createDatabase(forChores({ url: databaseUrl }));
  try {
    await migrate(database);
    await checksPerMinute(database.db, note);
    await ingestCost(database.db, note);
    await scheduleCost(database.db, note);
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchCitations(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench", (line) => console.log(line));
  process.exit(0);
}
