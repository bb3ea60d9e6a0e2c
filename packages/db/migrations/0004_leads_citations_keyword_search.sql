CREATE TYPE "public"."lead_status" AS ENUM('new', 'contacted', 'won', 'lost', 'rejected');--> statement-breakpoint
CREATE TABLE "lead_consents" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"statement" text NOT NULL,
	"attested_by" text NOT NULL,
	"consented_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"status" "lead_status" DEFAULT 'new' NOT NULL,
	"contact_name" text NOT NULL,
	"contact_email" text,
	"contact_phone" text,
	"message" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "citation_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"engine" text NOT NULL,
	"query" text NOT NULL,
	"mentioned" boolean NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "search_document" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(name, '') || ' ' || coalesce(description, '') || ' ' || coalesce(usp, '') || ' ' || coalesce(tagline, '') || ' ' || immutable_join(services) || ' ' || immutable_join(keywords))) STORED;--> statement-breakpoint
ALTER TABLE "lead_consents" ADD CONSTRAINT "lead_consents_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_idempotency_uq" ON "leads" USING btree ("business_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "leads_business_idx" ON "leads" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "citation_checks_business_idx" ON "citation_checks" USING btree ("business_id","checked_at");--> statement-breakpoint
CREATE INDEX "businesses_search_document_idx" ON "businesses" USING gin ("search_document");--> statement-breakpoint
CREATE INDEX "buyer_questions_text_idx" ON "buyer_questions" USING gin (to_tsvector('simple', "question" || ' ' || coalesce("answer", '')));