import { count, desc, eq, sql } from "drizzle-orm";
import { businesses, cities, type Db } from "@directory/db";
import { createContext } from "./context";
import { createCaller } from "./root";
import { feedChangesText, type FeedChangesParams } from "./services/feed/changes";
import { partnerFeedPageText, type PartnerFeedPageParams } from "./services/feed/partner-feed";

/*
 * For the tests of this package: the in-process caller they call procedures with, and the
 * servability rule written out again in SQL as an oracle, independent of services/active-business.
 */

export const TEST_BASE_URL = "http://directory.test";

/** A caller with no key and no client address (so no address-based limit applies). */
export function anonymousCaller(db: Db) {
  return createCaller(createContext({ db, publicBaseUrl: TEST_BASE_URL }));
}

/** A caller sending this key as its bearer token, as every door does. */
export function keyedCaller(db: Db, key: string) {
  return createCaller(createContext({ db, publicBaseUrl: TEST_BASE_URL, authorizationHeader: `Bearer ${key}` }));
}

/** A page of the change feed as values, as the tRPC door receives it. */
export async function feedChangesPage(db: Db, params: FeedChangesParams) {
  return (await feedChangesText(db, params)).value();
}

/** A page of the paged partner feed as values, as the tRPC door receives it. */
export async function partnerFeedPage(db: Db, params: PartnerFeedPageParams) {
  return (await partnerFeedPageText(db, params)).value();
}

/** Active, and unexpired or without expiry: what a public answer may show. */
export const SERVABLE = sql`${businesses.status} = 'active' and (${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`;

/** The category+city pair with the most servable businesses in a world: pages and filters there are real. */
export async function busiestCategoryCity(db: Db) {
  const [busiest] = await db
    .select({ category: businesses.categorySlug, cityId: businesses.cityId, city: cities.name, timeZone: cities.timeZone, lat: cities.lat, lng: cities.lng })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(SERVABLE)
    .groupBy(businesses.categorySlug, businesses.cityId, cities.name, cities.timeZone, cities.lat, cities.lng)
    .orderBy(desc(count()))
    .limit(1);
  if (!busiest) throw new Error("the test world has no servable business");
  return { ...busiest, timeZone: busiest.timeZone!, lat: Number(busiest.lat), lng: Number(busiest.lng) };
}
