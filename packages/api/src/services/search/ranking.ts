import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { businesses, type Db, type PlanTier } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { recordsInOrder, selectBusinessRecords, type BusinessRecord } from "../entities/business-lookup";
import { decodeOpaqueCursor, encodeOpaqueCursor, invalidCursorError, isCursorCount, listingFingerprint } from "../shared/opaque-cursor";
import { isUuid } from "../shared/ids";
import { statementsPerDatabase } from "../shared/statements-per-database";
import type { CategorySort } from "./disclosures";
import { openAtLocalMinute, openPageAndCounts, openPageColumns, openPageOf, type OpenPage } from "../where-when/open-filter";
import { localWeekMinute } from "../where-when/local-time";
import { afterRating, RATING_KEY_COLUMNS, RATING_ORDER, type RatingKeys } from "./rating-order";

/** The ranking order of every search, matching businesses_search_idx: tier, internal score, name. */
export const RANKING_ORDER: SQL[] = [asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name), asc(businesses.id)];

/**
 * A keyset cursor over RANKING_ORDER (tier, internal score descending, name, id): [id, count,
 * fingerprint], plus under an open filter the excluded count. It carries the last row's id only,
 * never its keys: the internal score must not leave the service, and an opaque cursor is only
 * base64. The keys are read again by id when the cursor comes back, from a row of the listing
 * itself (its category and city, servable): any other id is refused, or the page after it would
 * tell that business's tier and internal score. Checked rather than signed: no key to share
 * between instances, and a row of the listing tells only a position the listing shows anyway.
 * The fingerprint of the category, city, order and open filter keeps a cursor to its listing.
 * The counts are what the listing counted when the cursor was issued, kept so cursors already
 * issued still decode; they are never read back: every page counts its listing (a count a caller
 * can edit must not be echoed).
 */
interface RankingKeys {
  planTier: PlanTier;
  visibilityScore: number;
  name: string;
  id: string;
}

/** cityId null: across every city (or a country's); openKey: the open filter's openAt text or "now". */
function fingerprint(categorySlug: string, cityId: number | null, sort: CategorySort, openKey: string | null, country: string | null): string {
  // The default order's fingerprint is what it was before sort, the open filter and country existed: its cursors stay valid.
  const parts: unknown[] = sort === "ranking" ? [categorySlug, cityId] : [categorySlug, cityId, sort];
  const inCountry = country === null ? parts : [...parts, "country", country];
  return listingFingerprint(openKey === null ? inCountry : [...inCountry, "open", openKey]);
}

/** The id a ranked cursor names; a cursor of an open-filtered listing has a fourth part, the excluded count. */
function decodeRankedCursor(raw: string, expectedFilters: string, open: boolean): string {
  const [id, total, filters, excluded = 0] = decodeOpaqueCursor(raw, open ? 4 : 3);
  if (typeof id !== "string" || !isUuid(id) || id !== id.toLowerCase()) throw invalidCursorError();
  if (!isCursorCount(total) || !isCursorCount(excluded)) throw invalidCursorError();
  if (filters !== expectedFilters) throw invalidCursorError();
  return id;
}

/** The sort keys of the cursor's row as they are now, when it is a row of the listing (`matches`); else a 400. */
async function keysOf<K>(db: Db, id: string, matches: SQL, columns: { [P in keyof K]: PgColumn }): Promise<K> {
  const [row] = await db
    .select(columns)
    .from(businesses)
    .where(and(eq(businesses.id, id), matches));
  if (!row) throw invalidCursorError();
  return row as K;
}

/** Each order a city page can be read in: its ORDER BY and the rows after a cursor's row. */
const CITY_PAGE_ORDERS = {
  ranking: {
    orderBy: RANKING_ORDER,
    after: async (db: Db, id: string, matches: SQL) =>
      after(
        await keysOf<RankingKeys>(db, id, matches, {
          planTier: businesses.planTier,
          visibilityScore: businesses.visibilityScore,
          name: businesses.name,
          id: businesses.id,
        }),
      ),
  },
  rating: {
    orderBy: RATING_ORDER,
    after: async (db: Db, id: string, matches: SQL) => afterRating(await keysOf<RatingKeys>(db, id, matches, RATING_KEY_COLUMNS)),
  },
} satisfies Record<CategorySort, { orderBy: SQL[]; after(db: Db, id: string, matches: SQL): Promise<SQL> }>;

/** The ORDER BY of a category search's order (RANKING_ORDER or RATING_ORDER): what a search within a circle pages in too. */
export function searchOrder(sort: CategorySort): SQL[] {
  return CITY_PAGE_ORDERS[sort].orderBy;
}

/** Rows strictly after the given keys in RANKING_ORDER (tier asc, score desc, name asc, id asc). */
function after(keys: RankingKeys): SQL {
  return or(
    gt(businesses.planTier, keys.planTier),
    and(eq(businesses.planTier, keys.planTier), lt(businesses.visibilityScore, keys.visibilityScore)),
    and(eq(businesses.planTier, keys.planTier), eq(businesses.visibilityScore, keys.visibilityScore), gt(businesses.name, keys.name)),
    and(
      eq(businesses.planTier, keys.planTier),
      eq(businesses.visibilityScore, keys.visibilityScore),
      eq(businesses.name, keys.name),
      gt(businesses.id, keys.id),
    ),
  )!;
}

/** An open filter on a ranked page: the instant, its key for the cursor, and the city's zone when there is one city. */
export interface RankedOpenFilter {
  at: Date;
  key: string;
  timeZone: string | null;
}

/** Where a ranked page looks: one city, one country (the listing's own country), or everywhere. */
type RankedScope = "city" | "country" | "national";

/**
 * One page of a category in a city (or across every city, cityId null: businesses_category_rank_idx
 * and _category_rating_idx serve it), in ranking order (or `sort`'s), continuing after `cursor` when given: the
 * page, the cursor of the next one (null at the end) and the number of all matches, counted beside
 * every page (a count carried in a cursor would be the caller's to edit).
 * With `open`, only businesses open at its instant (open-filter.ts: page and counts in one pass),
 * and excludedUnknownHours says how many matches were left out for unknown hours.
 */
export async function rankedPage(
  db: Db,
  params: {
    categorySlug: string;
    cityId: number | null;
    /** Only this country's listings (upper-case ISO code) when there is no city; a city is in one country already. */
    country?: string | null | undefined;
    limit: number;
    cursor?: string | undefined;
    sort?: CategorySort | undefined;
    open?: RankedOpenFilter | null;
  },
): Promise<{ records: BusinessRecord[]; nextCursor: string | null; total: number; excludedUnknownHours?: number }> {
  const sort = params.sort ?? "ranking";
  const order = CITY_PAGE_ORDERS[sort];
  const open = params.open ?? null;
  const country = params.cityId === null ? (params.country ?? null) : null;
  const scope: RankedScope = params.cityId !== null ? "city" : country !== null ? "country" : "national";
  const filters = fingerprint(params.categorySlug, params.cityId, sort, open?.key ?? null, country);
  const cursorId = params.cursor ? decodeRankedCursor(params.cursor, filters, open !== null) : null;
  const inCity = params.cityId === null ? undefined : eq(businesses.cityId, params.cityId);
  const inCountry = country === null ? undefined : eq(businesses.country, country);
  const matches = and(eq(businesses.categorySlug, params.categorySlug), inCity, inCountry, servableCondition())!;
  if (open) {
    const found =
      cursorId === null && params.cityId !== null && open.timeZone
        ? await openFirstPageInCity(db, sort, params.categorySlug, params.cityId, localWeekMinute(open.at, open.timeZone), params.limit + 1)
        : await openPageAndCounts(db, {
            matches,
            ...(cursorId === null ? {} : { after: await order.after(db, cursorId, matches) }),
            at: open.at,
            city: { timeZone: open.timeZone },
            orderBy: order.orderBy,
            limit: params.limit + 1,
          });
    const rows = await recordsInOrder(db, found.ids);
    const { open: total, excludedUnknownHours: excluded } = found;
    return { ...pageOf(rows, params.limit, (last) => [last.id, total, filters, excluded]), total, excludedUnknownHours: excluded };
  }
  if (cursorId === null) {
    // The first page with its count: nearly every call, so one statement prepared once.
    const first = firstPageStatements(db, sort, scope);
    const values = { category: params.categorySlug, cityId: params.cityId, country, limit: params.limit + 1 };
    const rows = await first.page.execute(values);
    // Each row carries the count; no row, no match.
    const total = Number(rows[0]?.matchCount ?? 0);
    const records = rows.map(({ matchCount: _count, ...record }): BusinessRecord => record);
    return { ...pageOf(records, params.limit, (last) => [last.id, total, filters]), total };
  }
  const rows = await selectBusinessRecords(db, { matchCount: matchCountOf(matches) })
    .where(and(matches, await order.after(db, cursorId, matches)))
    .orderBy(...order.orderBy)
    .limit(params.limit + 1);
  // Past the listing's last row no row carries the count: counted on its own then.
  const total = rows[0] ? Number(rows[0].matchCount) : await db.$count(businesses, matches);
  const records = rows.map(({ matchCount: _count, ...record }): BusinessRecord => record);
  return { ...pageOf(records, params.limit, (last) => [last.id, total, filters]), total };
}

/** The number of a listing's matches as a subquery PostgreSQL runs once beside its page (an index-only scan of the listing's index). */
function matchCountOf(matches: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from ${businesses} where ${matches})`;
}

/**
 * A category's first page (in a city or across every city, in one order) and its match count, and
 * in a city the first page open at a local minute with both its counts (open-filter.ts), as
 * statements built and prepared once per database: no query building per call, and PostgreSQL
 * plans them once per connection instead of on every call (1 to 3 ms of its time a page).
 */
function buildFirstPageStatements(db: Db, sort: CategorySort, scope: RankedScope) {
  const withCity = scope === "city";
  const name = `ranked_first_${sort}_${scope}`;
  const matches = and(
    eq(businesses.categorySlug, sql.placeholder("category")),
    withCity ? eq(businesses.cityId, sql.placeholder("cityId")) : undefined,
    scope === "country" ? eq(businesses.country, sql.placeholder("country")) : undefined,
    servableCondition(),
  );
  return {
    // The count rides on the page (businesses_search_idx or _category_rank_idx, migration 0024): one round trip, not two.
    page: selectBusinessRecords(db, { matchCount: matchCountOf(matches!) })
      .where(matches)
      .orderBy(...CITY_PAGE_ORDERS[sort].orderBy)
      .limit(sql.placeholder("limit"))
      .prepare(`${name}_page`),
    openInCity: withCity
      ? db
          .select(openPageColumns(openAtLocalMinute(sql`${sql.placeholder("minute")}`), CITY_PAGE_ORDERS[sort].orderBy, sql`${sql.placeholder("limit")}`))
          .from(businesses)
          .where(matches)
          .prepare(`${name}_open`)
      : null,
  };
}

/** A category's first page in a city open at a local minute of the week, with both counts (open-filter.ts): its prepared statement. */
async function openFirstPageInCity(db: Db, sort: CategorySort, category: string, cityId: number, minute: number, limit: number): Promise<OpenPage> {
  const [row] = await firstPageStatements(db, sort, "city").openInCity!.execute({ category, cityId, minute, limit });
  return openPageOf(row);
}

const firstPageStatementsOf = statementsPerDatabase<ReturnType<typeof buildFirstPageStatements>>();

function firstPageStatements(db: Db, sort: CategorySort, scope: RankedScope): ReturnType<typeof buildFirstPageStatements> {
  return firstPageStatementsOf(db, `${sort}:${scope}`, () => buildFirstPageStatements(db, sort, scope));
}

/** The first `limit` of `limit + 1` rows, and the next page's cursor when the extra row says there is one. */
function pageOf(rows: BusinessRecord[], limit: number, cursorParts: (last: BusinessRecord) => unknown[]) {
  const records = rows.slice(0, limit);
  const last = records.at(-1);
  return { records, nextCursor: rows.length > limit && last ? encodeOpaqueCursor(cursorParts(last)) : null };
}
