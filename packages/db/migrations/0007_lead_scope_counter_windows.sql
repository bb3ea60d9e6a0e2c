CREATE TABLE "legacy_score_request_counts" (
	"day" date NOT NULL,
	"route" text NOT NULL,
	"api_key_id" uuid,
	"requested_fields" text NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "legacy_score_request_counts_uq" UNIQUE NULLS NOT DISTINCT("day","route","api_key_id","requested_fields")
);
--> statement-breakpoint
ALTER TABLE "legacy_score_request_counts" ADD CONSTRAINT "legacy_score_request_counts_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Keep what the per-request log knew, as daily counters.
INSERT INTO "legacy_score_request_counts" ("day", "route", "api_key_id", "requested_fields", "hits")
	SELECT ("created_at" AT TIME ZONE 'UTC')::date, "route", "api_key_id", array_to_string("requested_fields", ','), count(*)
	FROM "legacy_score_requests"
	GROUP BY 1, 2, 3, 4;--> statement-breakpoint
DROP TABLE "legacy_score_requests" CASCADE;--> statement-breakpoint
DROP INDEX "rate_limit_counters_window_idx";--> statement-breakpoint
-- Existing windows were days or months: 32 days is past the end of either.
ALTER TABLE "rate_limit_counters" ADD COLUMN "window_end" timestamp with time zone;--> statement-breakpoint
UPDATE "rate_limit_counters" SET "window_end" = "window_start" + interval '32 days';--> statement-breakpoint
ALTER TABLE "rate_limit_counters" ALTER COLUMN "window_end" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "rate_limit_counters_window_end_idx" ON "rate_limit_counters" USING btree ("window_end");--> statement-breakpoint
-- Leads written before keys were scoped to their caller keep a scope of their own.
DROP INDEX "leads_idempotency_uq";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "idempotency_scope" text;--> statement-breakpoint
UPDATE "leads" SET "idempotency_scope" = 'legacy';--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "idempotency_scope" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_idempotency_uq" ON "leads" USING btree ("business_id","idempotency_scope","idempotency_key");
