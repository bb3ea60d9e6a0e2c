-- A search's match count reads its index alone (an index-only scan, no heap visit per match) once
-- the index carries every column the servable condition reads besides status: the subscription's
-- end (services/entities/servable.ts). Counting dentists in Mumbai at 1M read 743 heap pages
-- (68 ms cold) and now reads 12 index pages (0.8 ms). The near-a-point index also carries lat and
-- lng (PostgreSQL serves an expression index-only only when the expression's columns are in it),
-- and the category and city a near search may name.
-- Drizzle's index builder has no INCLUDE: schema/businesses.ts says so beside each of these.
DROP INDEX IF EXISTS "businesses_search_idx";--> statement-breakpoint
CREATE INDEX "businesses_search_idx" ON "businesses" USING btree ("category_slug","city_id","plan_tier","visibility_score" DESC NULLS FIRST,"name","id") INCLUDE ("subscription_expires_at") WHERE "businesses"."status" = 'active';--> statement-breakpoint
DROP INDEX IF EXISTS "businesses_category_rank_idx";--> statement-breakpoint
CREATE INDEX "businesses_category_rank_idx" ON "businesses" USING btree ("category_slug","plan_tier","visibility_score" DESC NULLS FIRST,"name","id") INCLUDE ("subscription_expires_at") WHERE "businesses"."status" = 'active';--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'earthdistance') THEN
    DROP INDEX IF EXISTS "businesses_earth_idx";
    CREATE INDEX "businesses_earth_idx" ON "businesses" USING gist (ll_to_earth("lat", "lng")) INCLUDE ("lat", "lng", "subscription_expires_at", "category_slug", "city_id") WHERE "businesses"."status" = 'active';
  END IF;
END $$;
