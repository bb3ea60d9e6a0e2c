-- An open-now or open-at search in one city reads every match once, for its two counts and its
-- page of ids (services/where-when/open-filter.ts). Its indexes now carry what that reads besides
-- the keys, the hours (open_week) and a temporary closure, so the pass is an index-only scan:
-- dentists in Mumbai at 1M read 725 heap pages per request (2 ms warm, 7 ms cold) before.
-- Drizzle's index builder has no INCLUDE: schema/businesses.ts says so beside each of these.
DROP INDEX IF EXISTS "businesses_search_idx";--> statement-breakpoint
CREATE INDEX "businesses_search_idx" ON "businesses" USING btree ("category_slug","city_id","plan_tier","visibility_score" DESC NULLS FIRST,"name","id") INCLUDE ("subscription_expires_at","open_week","temporary_closure") WHERE "businesses"."status" = 'active';--> statement-breakpoint
DROP INDEX IF EXISTS "businesses_rating_idx";--> statement-breakpoint
CREATE INDEX "businesses_rating_idx" ON "businesses" USING btree ("category_slug","city_id","rating" DESC NULLS LAST,"review_count" DESC NULLS LAST,"name","id") INCLUDE ("subscription_expires_at","open_week","temporary_closure") WHERE "businesses"."status" = 'active';
