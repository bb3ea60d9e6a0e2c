CREATE TABLE "feed_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint,
	"business_id" uuid NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"merged_into" uuid,
	"document" text,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_documents" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"document" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_position" (
	"id" integer PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL,
	"pruned_through" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feed_documents" ADD CONSTRAINT "feed_documents_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feed_changes_seq_idx" ON "feed_changes" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "feed_changes_unsequenced_idx" ON "feed_changes" USING btree ("id") WHERE "feed_changes"."seq" is null;--> statement-breakpoint
INSERT INTO "feed_position" ("id", "last", "pruned_through") VALUES (1, 0, 0);--> statement-breakpoint
-- Positions in commit order: at commit, the first of a transaction's new changes takes the one
-- feed_position row lock (held until the commit completes) and numbers all of them after the last
-- position given. A concurrent transaction waits for that lock, so it numbers after this commit:
-- a reader can never see seq n while a smaller seq is still to come. Only the tail of a writing
-- transaction is serialized (one row update), never its work.
CREATE FUNCTION feed_changes_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pending bigint;
  top bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM feed_changes WHERE id = NEW.id AND seq IS NULL) THEN
    RETURN NULL;
  END IF;
  -- Unnumbered rows this transaction can see are its own: every committed one was numbered at its commit.
  SELECT count(*) INTO pending FROM feed_changes WHERE seq IS NULL;
  UPDATE feed_position SET last = last + pending WHERE id = 1 RETURNING last INTO top;
  UPDATE feed_changes c SET seq = top - pending + n.rn
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM feed_changes WHERE seq IS NULL) n
  WHERE c.id = n.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER feed_changes_sequence AFTER INSERT ON "feed_changes" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION feed_changes_sequence();
