import { and, asc, eq, sql } from "drizzle-orm";
import { businesses, cities, type Db } from "@directory/db";

/** What the page tests share: a browser's GET, and the demo world's Mumbai dentists with their zone. */

export const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

export const ALL_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** A page as a browser gets it: no redirect followed, the body as text. */
export async function fetchPage(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { redirect: "manual", headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The servable dentists of Mumbai, with their zone, in slug order. */
export function mumbaiDentists(db: Db) {
  return db
    .select({ id: businesses.id, slug: businesses.slug, lat: businesses.lat, lng: businesses.lng, timeZone: cities.timeZone, cityName: cities.name })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(
      and(eq(businesses.categorySlug, "dentist"), eq(cities.name, "Mumbai"), eq(businesses.status, "active"), sql`${businesses.subscriptionExpiresAt} is null`),
    )
    .orderBy(asc(businesses.slug));
}
