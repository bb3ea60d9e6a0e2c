CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"engine" text,
	"query" text,
	"fetched_at" timestamp with time zone NOT NULL,
	"language" text NOT NULL,
	"city_id" integer,
	"category_slug" text,
	"body" text NOT NULL,
	"content_hash" text NOT NULL,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_content_hash_unique" UNIQUE("content_hash"),
	CONSTRAINT "documents_kind" CHECK ("documents"."kind" in ('ai_answer', 'article'))
);
--> statement-breakpoint
CREATE TABLE "document_mentions" (
	"document_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"offset" integer NOT NULL,
	"length" integer NOT NULL,
	"position" integer NOT NULL,
	"confidence" real NOT NULL,
	"matched_as" text NOT NULL,
	CONSTRAINT "document_mentions_document_id_business_id_pk" PRIMARY KEY("document_id","business_id"),
	CONSTRAINT "document_mentions_confidence_range" CHECK ("document_mentions"."confidence" >= 0 and "document_mentions"."confidence" <= 1)
);
--> statement-breakpoint
CREATE TABLE "co_mention_edges" (
	"business_a" uuid NOT NULL,
	"business_b" uuid NOT NULL,
	"weight" integer NOT NULL,
	CONSTRAINT "co_mention_edges_business_a_business_b_pk" PRIMARY KEY("business_a","business_b"),
	CONSTRAINT "co_mention_edges_order" CHECK ("co_mention_edges"."business_a" < "co_mention_edges"."business_b")
);
--> statement-breakpoint
ALTER TABLE "citation_checks" ADD COLUMN "document_id" uuid;--> statement-breakpoint
ALTER TABLE "citation_checks" ADD COLUMN "position" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_category_slug_categories_slug_fk" FOREIGN KEY ("category_slug") REFERENCES "public"."categories"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_mentions" ADD CONSTRAINT "document_mentions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_mentions" ADD CONSTRAINT "document_mentions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "co_mention_edges" ADD CONSTRAINT "co_mention_edges_business_a_businesses_id_fk" FOREIGN KEY ("business_a") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "co_mention_edges" ADD CONSTRAINT "co_mention_edges_business_b_businesses_id_fk" FOREIGN KEY ("business_b") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_context_idx" ON "documents" USING btree ("city_id","category_slug");--> statement-breakpoint
CREATE INDEX "document_mentions_business_idx" ON "document_mentions" USING btree ("business_id","document_id");--> statement-breakpoint
CREATE INDEX "co_mention_edges_b_idx" ON "co_mention_edges" USING btree ("business_b","business_a");--> statement-breakpoint
CREATE INDEX "co_mention_edges_weight_idx" ON "co_mention_edges" USING btree ("weight" DESC NULLS LAST,"business_a","business_b");--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "businesses_city_idx" ON "businesses" USING btree ("city_id","category_slug");--> statement-breakpoint
CREATE INDEX "claims_former_names_idx" ON "claims" USING btree ("business_id") WHERE "claims"."property" = 'name' and "claims"."superseded_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "citation_checks_document_business_uq" ON "citation_checks" USING btree ("document_id","business_id");