CREATE TYPE "public"."api_key_kind" AS ENUM('developer', 'partner', 'business', 'admin');--> statement-breakpoint
CREATE TYPE "public"."business_status" AS ENUM('active', 'inactive');--> statement-breakpoint
CREATE TYPE "public"."claim_verification" AS ENUM('self_reported', 'admin_verified', 'registry');--> statement-breakpoint
CREATE TYPE "public"."ownership" AS ENUM('owner_verified', 'unclaimed');--> statement-breakpoint
CREATE TYPE "public"."plan_tier" AS ENUM('premium', 'pro', 'basic', 'free');--> statement-breakpoint
CREATE TABLE "categories" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"singular" text NOT NULL,
	"schema_org_type" text NOT NULL,
	"synonyms" text[] DEFAULT '{}' NOT NULL,
	"popularity" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cities" (
	"id" integer PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"country_code" text NOT NULL,
	"admin_region" text NOT NULL,
	"population" integer NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"aliases" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "cities_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "businesses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"category_slug" text NOT NULL,
	"city_id" integer NOT NULL,
	"state" text NOT NULL,
	"country" text NOT NULL,
	"address" text NOT NULL,
	"postal_code" text,
	"phone" text,
	"website" text,
	"email" text,
	"description" text,
	"services" text[] DEFAULT '{}' NOT NULL,
	"usp" text,
	"tagline" text,
	"keywords" text[] DEFAULT '{}' NOT NULL,
	"rating" real,
	"review_count" integer DEFAULT 0 NOT NULL,
	"plan_tier" "plan_tier" DEFAULT 'free' NOT NULL,
	"subscription_expires_at" timestamp with time zone,
	"status" "business_status" DEFAULT 'active' NOT NULL,
	"ownership" "ownership" DEFAULT 'unclaimed' NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"opening_hours" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"geo_score" integer DEFAULT 0 NOT NULL,
	"visibility_score" integer DEFAULT 0 NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "businesses_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "slug_history" (
	"slug" text PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"retired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"property" text NOT NULL,
	"value" jsonb NOT NULL,
	"source" text NOT NULL,
	"confidence" real NOT NULL,
	"verification" "claim_verification" NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"superseded_by" uuid,
	CONSTRAINT "claims_confidence_range" CHECK ("claims"."confidence" >= 0 and "claims"."confidence" <= 1)
);
--> statement-breakpoint
CREATE TABLE "buyer_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid,
	"category_slug" text,
	"question" text NOT NULL,
	"answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyer_questions_owner_xor_template" CHECK (("buyer_questions"."business_id" is null) <> ("buyer_questions"."category_slug" is null))
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"price" numeric(12, 2) NOT NULL,
	"currency" text NOT NULL,
	"valid_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "api_key_kind" NOT NULL,
	"visible_prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"business_id" uuid,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "legacy_score_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"route" text NOT NULL,
	"requested_fields" text[] NOT NULL,
	"api_key_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_category_slug_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."categories"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slug_history" ADD CONSTRAINT "slug_history_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_superseded_by_claims_id_fk" FOREIGN KEY ("superseded_by") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_questions" ADD CONSTRAINT "buyer_questions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_questions" ADD CONSTRAINT "buyer_questions_category_slug_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."categories"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legacy_score_requests" ADD CONSTRAINT "legacy_score_requests_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cities_name_lower_idx" ON "cities" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "cities_aliases_idx" ON "cities" USING gin ("aliases");--> statement-breakpoint
CREATE INDEX "businesses_search_idx" ON "businesses" USING btree ("category_slug","city_id","plan_tier","visibility_score" DESC NULLS LAST,"name","id") WHERE "businesses"."status" = 'active';--> statement-breakpoint
CREATE INDEX "businesses_name_trgm_idx" ON "businesses" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "businesses_updated_idx" ON "businesses" USING btree ("updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_current_uq" ON "claims" USING btree ("business_id","property") WHERE "claims"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "claims_business_idx" ON "claims" USING btree ("business_id","observed_at");--> statement-breakpoint
CREATE INDEX "buyer_questions_business_idx" ON "buyer_questions" USING btree ("business_id");--> statement-breakpoint
CREATE INDEX "buyer_questions_category_idx" ON "buyer_questions" USING btree ("category_slug");--> statement-breakpoint
CREATE INDEX "offers_business_idx" ON "offers" USING btree ("business_id");--> statement-breakpoint
CREATE INDEX "api_keys_business_idx" ON "api_keys" USING btree ("business_id");