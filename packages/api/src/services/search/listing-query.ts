import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { businesses, categories, cities } from "@directory/db";
import type { ListingSource } from "./listing";

/** The columns a listing is built from, named as ListingSource names them: no other column is read. */
const LISTING_COLUMNS: { [K in keyof ListingSource]: AnyColumn } = {
  id: businesses.id,
  slug: businesses.slug,
  name: businesses.name,
  categoryName: categories.name,
  cityName: cities.name,
  state: businesses.state,
  country: businesses.country,
  address: businesses.address,
  phone: businesses.phone,
  website: businesses.website,
  email: businesses.email,
  description: businesses.description,
  services: businesses.services,
  usp: businesses.usp,
  tagline: businesses.tagline,
  keywords: businesses.keywords,
  openingHours: businesses.openingHours,
  lat: businesses.lat,
  lng: businesses.lng,
  rating: businesses.rating,
  planTier: businesses.planTier,
  ownership: businesses.ownership,
};

/**
 * `select <the listing's columns> from businesses join categories join cities`, for hot queries
 * read as the driver's raw rows (preparedQuery): the rows are ListingSource as they arrive.
 */
export const SELECT_LISTINGS: SQL = sql`select ${sql.join(
  Object.entries(LISTING_COLUMNS).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
  sql`, `,
)}
  from ${businesses}
  join ${categories} on ${eq(categories.slug, businesses.categorySlug)}
  join ${cities} on ${eq(cities.id, businesses.cityId)}`;
