import { and, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { businesses, cities, type Db } from "@directory/db";
import { localWeekMinute } from "./local-time";

/*
 * The open-now / open-at filter of a search, in SQL. businesses.open_week holds each business's
 * hours as local minutes of the week (generated from opening_hours, migration 0019); "open at t"
 * is one containment test of t's local minute of the week in the business's city's zone. Unknown
 * hours are NULL there, so an open filter leaves them out, and unknownHoursCondition() counts them.
 *
 * Performance: with one city (category+city search, listicle) the minute is computed once, here,
 * and bound as a parameter: the ranked index scan only skips the closed rows it meets, with no
 * join. Across cities (keyword search without a city, near a point) each row's city zone is read
 * by primary key and converted in SQL (AT TIME ZONE), for the bounded candidate set those
 * searches already read.
 */

/** The condition "open at `at`" for businesses of a city in `timeZone` (the city's cities.time_zone). */
export function openInZoneCondition(at: Date, timeZone: string): SQL {
  return openAtLocalMinute(localWeekMinute(at, timeZone));
}

/** "Open at this local minute of the week" (Monday 00:00 = 0): a number, or a prepared statement's placeholder for one. */
export function openAtLocalMinute(minute: number | SQL): SQL {
  return sql`(${businesses.openWeek} @> ${minute}::int4 and ${notTemporarilyClosed})`;
}

/** A business its operatingStatus claim reports temporarily closed is open at no time, whatever its hours. */
const notTemporarilyClosed = isNull(businesses.temporaryClosure);

/**
 * The local minute of the week at `at` in the zone of the row's city, in SQL: Monday 00:00 = 0.
 * NULL when the city has no zone yet (migrate() backfills every city), which no filter matches.
 * `at` may be a prepared statement's placeholder for an ISO 8601 instant (where-when/near.ts).
 */
export function cityWeekMinuteSql(at: Date | Placeholder): SQL<number> {
  const local = sql`(${at instanceof Date ? at.toISOString() : at}::timestamptz at time zone ${cities.timeZone})`;
  return sql<number>`(select ((extract(isodow from ${local})::int - 1) * 1440 + extract(hour from ${local})::int * 60 + extract(minute from ${local})::int)
    from ${cities} where ${cities.id} = ${businesses.cityId})`;
}

/** The condition "open at `at`" for businesses of any city, each in its own city's zone. */
export function openAnyCityCondition(at: Date | Placeholder): SQL {
  return sql`(${businesses.openWeek} @> ${cityWeekMinuteSql(at)} and ${notTemporarilyClosed})`;
}

/** "Open at `at`": in the one city's zone when the search names a city (the fast form), else per row. */
export function openCondition(at: Date, city?: { timeZone: string | null } | null): SQL {
  return city?.timeZone ? openInZoneCondition(at, city.timeZone) : openAnyCityCondition(at);
}

/**
 * Businesses whose hours are unknown: an open filter excludes them, and the envelope says how many.
 * A temporarily closed one is not among them: it is closed, whatever its hours.
 */
export function unknownHoursCondition(): SQL {
  return and(isNull(businesses.openWeek), notTemporarilyClosed)!;
}

/** What an open filter leaves of a search's matches. */
export interface OpenMatchCounts {
  /** Matches open at the instant: the search's totalMatches under an open filter. */
  open: number;
  /** Matches left out because their hours are unknown: the envelope's excludedUnknownHours. */
  excludedUnknownHours: number;
}

/** Both counts over a search's matches (`open`: the open filter's condition), as selected columns. */
function openCountColumns(open: SQL) {
  return {
    open: sql<number>`(count(*) filter (where ${open}))::int`,
    excludedUnknownHours: sql<number>`(count(*) filter (where ${unknownHoursCondition()}))::int`,
  };
}

/** One page of an open-filtered search, as ids in the search's order, with both counts. */
export interface OpenPage extends OpenMatchCounts {
  /** At most `limit` ids of open matches, in `orderBy` order: the caller reads their listings by id. */
  ids: string[];
}

/**
 * The page and both counts of an open-filtered search in one pass over its matches: the count
 * has to visit every match anyway, and a page read separately in index order would, at night
 * (most of a city closed), walk every match a second time looking for open ones. Memory stays
 * bounded: each match contributes its sort keys to one in-database aggregate, and only `limit`
 * ids come back. `orderBy` is the search's own order (RANKING_ORDER, RATING_ORDER), `matches`
 * its condition (what the counts count), `after` a cursor's "after" (where the page starts).
 */
export async function openPageAndCounts(
  db: Db,
  params: { matches: SQL; after?: SQL; at: Date; city?: { timeZone: string | null } | null; orderBy: SQL[]; limit: number },
): Promise<OpenPage> {
  const [row] = await db
    .select(openPageColumns(openCondition(params.at, params.city), params.orderBy, Math.max(1, params.limit), params.after))
    .from(businesses)
    .where(params.matches);
  return openPageOf(row);
}

/**
 * What an open page selects over a search's matches: both counts, and the first `limit` ids open
 * at the instant (`open`: its condition) in `orderBy` order, after a cursor's row when `after` is
 * given. `limit` may be a prepared statement's placeholder (search/ranking.ts prepares the first
 * page of a category in a city).
 */
export function openPageColumns(open: SQL, orderBy: SQL[], limit: number | SQL, after?: SQL) {
  const onPage = after ? and(open, after)! : open;
  return {
    ...openCountColumns(open),
    ids: sql<string[] | null>`(array_agg(${businesses.id} order by ${sql.join(orderBy, sql`, `)}) filter (where ${onPage}))[1:${limit}]`,
  };
}

/** The open page of openPageColumns' row. */
export function openPageOf(row: { open: number; excludedUnknownHours: number; ids: string[] | null } | undefined): OpenPage {
  return { ids: row?.ids ?? [], open: Number(row?.open ?? 0), excludedUnknownHours: Number(row?.excludedUnknownHours ?? 0) };
}
