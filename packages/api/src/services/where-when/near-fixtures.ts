import { and, eq, isNotNull } from "drizzle-orm";
import { businesses, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import type { NearPoint } from "./where-when-params";

/** Great-circle distance on a 6,371 km sphere, computed here, independently of the SQL the tests check. */
export function haversineKm(a: NearPoint, b: NearPoint): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Every servable business with coordinates, with its distance from the point. */
export async function servableWithDistances(db: Db, point: NearPoint, category?: string) {
  const rows = await db
    .select({ id: businesses.id, lat: businesses.lat, lng: businesses.lng, categorySlug: businesses.categorySlug })
    .from(businesses)
    .where(and(servableCondition(), isNotNull(businesses.lat), category ? eq(businesses.categorySlug, category) : undefined));
  return rows.map((row) => ({ id: row.id, km: haversineKm(point, { lat: row.lat!, lng: row.lng! }) }));
}
