CREATE TABLE "citation_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"engine" text NOT NULL,
	"model" text NOT NULL,
	"query" text NOT NULL,
	"category_slug" text NOT NULL,
	"city_id" integer NOT NULL,
	"period" date NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"failure_reason" text,
	"failed_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"document_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "citation_checks_once_per_period" UNIQUE("engine","model","category_slug","city_id","query","period"),
	CONSTRAINT "citation_checks_status" CHECK ("citation_checks"."status" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "citation_daily_spend" (
	"day" date PRIMARY KEY NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_category_slug_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."categories"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "citation_checks_due_idx" ON "citation_checks" USING btree ("next_attempt_at") WHERE "citation_checks"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "citation_checks_failed_at_idx" ON "citation_checks" USING btree ("failed_at");