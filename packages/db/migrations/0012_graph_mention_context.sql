ALTER TABLE "document_mentions" ADD COLUMN "city_id" integer;--> statement-breakpoint
ALTER TABLE "document_mentions" ADD COLUMN "category_slug" text;--> statement-breakpoint
UPDATE "document_mentions" m SET "city_id" = b."city_id", "category_slug" = b."category_slug" FROM "businesses" b WHERE b."id" = m."business_id";
--> statement-breakpoint
-- A mention carries its business's city and category (see schema/document-mentions.ts): filled on
-- insert, and followed when the business moves or changes category.
CREATE FUNCTION fill_mention_context() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	SELECT b.city_id, b.category_slug INTO NEW.city_id, NEW.category_slug FROM businesses b WHERE b.id = NEW.business_id;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER document_mentions_context BEFORE INSERT ON "document_mentions" FOR EACH ROW EXECUTE FUNCTION fill_mention_context();
--> statement-breakpoint
CREATE FUNCTION follow_mention_context() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE document_mentions m SET city_id = n.city_id, category_slug = n.category_slug
	FROM new_rows n JOIN old_rows o ON o.id = n.id
	WHERE m.business_id = n.id AND (n.city_id, n.category_slug) IS DISTINCT FROM (o.city_id, o.category_slug);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE INDEX "businesses_inactive_idx" ON "businesses" USING btree ("id") WHERE "businesses"."status" <> 'active';--> statement-breakpoint
CREATE INDEX "businesses_expiry_idx" ON "businesses" USING btree ("subscription_expires_at","id") WHERE "businesses"."subscription_expires_at" is not null;--> statement-breakpoint
CREATE INDEX "document_mentions_context_idx" ON "document_mentions" USING btree ("city_id","category_slug","document_id");--> statement-breakpoint
CREATE INDEX "document_mentions_category_idx" ON "document_mentions" USING btree ("category_slug","document_id");
--> statement-breakpoint
CREATE TRIGGER businesses_mention_context AFTER UPDATE ON "businesses" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION follow_mention_context();
