/**
 * Where-when queries behind a bare node:http server (issue 23), until the search procedures take
 * near / openNow: the bench drives the very service functions the procedures will call, at 10
 * connections, without express, tRPC or zod in front (so its figures are the queries' own, the
 * HTTP stack's cost comes on top once wired).
 *   /radius?lat=&lng=&km=                  businessesWithinRadius, 10 nearest of the circle + total
 *   /nearest?lat=&lng=                     nearestBusinesses, 20 nearest within 50 km
 *   /category?category=&cityId=&open=0|1   a category+city page of 10 in ranking order with its count;
 *                                          open=1: the open-now page and both counts in one pass
 *                                          (openPageAndCounts), the listings by id, and each one's
 *                                          openNow / nextChange / compact hours
 */
import { createServer } from "node:http";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { businesses, cities, createDatabase } from "@directory/db";
import { businessesWithinRadius, compactOpeningHours, nearestBusinesses, openingState, openPageAndCounts, servableCondition } from "@directory/api";

const database = await createDatabase({ url: process.env.DATABASE_URL ?? "", maxConnections: 10 });
const zones = new Map((await database.db.select({ id: cities.id, timeZone: cities.timeZone }).from(cities)).map((city) => [city.id, city.timeZone]));
const RANKING = [asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name), asc(businesses.id)];
const LISTING = {
  id: businesses.id,
  slug: businesses.slug,
  name: businesses.name,
  address: businesses.address,
  phone: businesses.phone,
  rating: businesses.rating,
  openingHours: businesses.openingHours,
};

async function categoryPage(params: URLSearchParams): Promise<unknown> {
  const cityId = Number(params.get("cityId"));
  const matches = and(eq(businesses.categorySlug, params.get("category") ?? ""), eq(businesses.cityId, cityId), servableCondition())!;
  if (params.get("open") !== "1") {
    const [rows, [count]] = await Promise.all([
      database.db
        .select(LISTING)
        .from(businesses)
        .where(matches)
        .orderBy(...RANKING)
        .limit(11),
      database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(businesses)
        .where(matches),
    ]);
    return { businesses: rows.slice(0, 10), totalMatches: count?.n ?? 0 };
  }
  const now = new Date();
  const city = { timeZone: zones.get(cityId) ?? null };
  // One pass: the open matches' first ids in ranking order and both counts; then the listings by id.
  const page = await openPageAndCounts(database.db, { matches, at: now, city, orderBy: RANKING, limit: 11 });
  const rows = page.ids.length ? await database.db.select(LISTING).from(businesses).where(inArray(businesses.id, page.ids)) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const listings = page.ids.slice(0, 10).flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const state = openingState(row.openingHours, city.timeZone ?? "UTC", now);
    return [{ ...row, openingHours: compactOpeningHours(row.openingHours), openNow: state.openNow, nextChange: state.nextChange }];
  });
  return { businesses: listings, totalMatches: page.open, excludedUnknownHours: page.excludedUnknownHours };
}

async function answer(url: URL): Promise<unknown> {
  const point = { lat: Number(url.searchParams.get("lat")), lng: Number(url.searchParams.get("lng")) };
  switch (url.pathname) {
    case "/radius":
      return businessesWithinRadius(database.db, { point, radiusKm: Number(url.searchParams.get("km")), limit: 10 });
    case "/nearest":
      return { businesses: await nearestBusinesses(database.db, { point, limit: 20, maxRadiusKm: 50 }) };
    case "/category":
      return categoryPage(url.searchParams);
    default:
      return null;
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://bench");
  answer(url)
    .then((body) => {
      res.statusCode = body === null ? 404 : 200;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(body));
    })
    .catch((error: unknown) => {
      console.error(error);
      res.statusCode = 500;
      res.end();
    });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
process.once("SIGTERM", () => server.close(() => void database.close().then(() => process.exit(0))));
