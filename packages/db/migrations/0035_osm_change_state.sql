-- What each OpenStreetMap source was last brought up to: the snapshot it holds (a file under
-- DATA_DIR that change files are applied to), the newest change applied, and the fingerprints of
-- the change files applied since, so a file given twice is skipped and an older one refused.
CREATE TABLE "osm_source_states" (
	"source" text PRIMARY KEY NOT NULL,
	"snapshot_file" text NOT NULL,
	"newest_change_at" timestamp with time zone,
	"applied_change_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
