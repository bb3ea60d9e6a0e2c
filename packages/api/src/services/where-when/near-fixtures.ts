import { and, eq, isNotNull } from "drizzle-orm";
import { businesses, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { localIsoString, offsetMinutesAt } from "./local-time";
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

/** A local wall-clock time ("2026-05-12T10:00:00") in the zone as ISO 8601 with the zone's offset then (outside DST jumps). */
export function atLocal(local: string, timeZone: string): string {
  const wall = Date.parse(`${local}Z`);
  return localIsoString(wall - offsetMinutesAt(wall, timeZone) * 60_000, timeZone);
}
