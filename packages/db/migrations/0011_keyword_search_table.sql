CREATE TABLE "business_search" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"city_id" integer NOT NULL,
	"plan_tier" "plan_tier" NOT NULL,
	"status" "business_status" NOT NULL,
	"subscription_expires_at" timestamp with time zone,
	"name" text NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "businesses_search_document_idx";--> statement-breakpoint
ALTER TABLE "business_search" ADD CONSTRAINT "business_search_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_search_document_idx" ON "business_search" USING gin ("document");--> statement-breakpoint
ALTER TABLE "businesses" DROP COLUMN "search_document";--> statement-breakpoint
-- Keyword search's document (see schema/business-search.ts): words weighted by the field they are
-- in, and the lexeme "in city <id>", which holds spaces so no query word can produce it.
CREATE FUNCTION business_search_document(name text, services text[], keywords text[], usp text, tagline text, description text, city_id integer)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT setweight(to_tsvector('simple', coalesce(name, '')), 'A')
		|| setweight(to_tsvector('simple', immutable_join(services) || ' ' || immutable_join(keywords)), 'B')
		|| setweight(to_tsvector('simple', coalesce(usp, '') || ' ' || coalesce(tagline, '')), 'C')
		|| setweight(to_tsvector('simple', coalesce(description, '')), 'D')
		|| array_to_tsvector(ARRAY['in city ' || city_id])
$$;--> statement-breakpoint
-- The narrow table follows businesses in the same statement, set-based, so a bulk load pays once
-- per statement and an update recomputes only rows whose searchable fields changed.
CREATE FUNCTION sync_business_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO business_search (business_id, city_id, plan_tier, status, subscription_expires_at, name, document)
		SELECT n.id, n.city_id, n.plan_tier, n.status, n.subscription_expires_at, n.name,
			business_search_document(n.name, n.services, n.keywords, n.usp, n.tagline, n.description, n.city_id)
		FROM new_rows n;
	ELSE
		INSERT INTO business_search (business_id, city_id, plan_tier, status, subscription_expires_at, name, document)
		SELECT n.id, n.city_id, n.plan_tier, n.status, n.subscription_expires_at, n.name,
			business_search_document(n.name, n.services, n.keywords, n.usp, n.tagline, n.description, n.city_id)
		FROM new_rows n JOIN old_rows o ON o.id = n.id
		WHERE (n.city_id, n.plan_tier, n.status, n.subscription_expires_at, n.name, n.services, n.keywords, n.usp, n.tagline, n.description)
			IS DISTINCT FROM (o.city_id, o.plan_tier, o.status, o.subscription_expires_at, o.name, o.services, o.keywords, o.usp, o.tagline, o.description)
		ON CONFLICT (business_id) DO UPDATE SET
			city_id = excluded.city_id, plan_tier = excluded.plan_tier, status = excluded.status,
			subscription_expires_at = excluded.subscription_expires_at, name = excluded.name, document = excluded.document;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER business_search_after_insert AFTER INSERT ON "businesses" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_business_search();--> statement-breakpoint
CREATE TRIGGER business_search_after_update AFTER UPDATE ON "businesses" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sync_business_search();--> statement-breakpoint
INSERT INTO business_search (business_id, city_id, plan_tier, status, subscription_expires_at, name, document)
SELECT id, city_id, plan_tier, status, subscription_expires_at, name,
	business_search_document(name, services, keywords, usp, tagline, description, city_id)
FROM businesses;
