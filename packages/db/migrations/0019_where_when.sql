-- Near a point (services/where-when/near.ts): cube + earthdistance ship with PGlite and stock PostgreSQL; no PostGIS.
-- cube + earthdistance on PostgreSQL only: PGlite 0.5.16 with them loaded answers pg_trgm queries
-- (name search) with no rows or hangs, so the embedded database does without near-a-point search.
DO $$ BEGIN
  CREATE EXTENSION IF NOT EXISTS cube;
  CREATE EXTENSION IF NOT EXISTS earthdistance;
EXCEPTION WHEN feature_not_supported OR undefined_file THEN
  RAISE NOTICE 'cube/earthdistance not available: near-a-point search is off on this database';
END $$;--> statement-breakpoint
-- A business's opening hours (jsonb [{days, opens, closes}], claim-values.ts) as local minutes of
-- the week, Monday 00:00 = 0 to Sunday 24:00 = 10080; null when no hours are known. The twin of
-- weeklyIntervals() in services/where-when/opening-hours-time.ts (a test checks they agree):
-- a range belongs to the day it opens, a closing at or before the opening runs past midnight,
-- a closing of 00:00, 24:00 or 23:59 (how the seed and the OSM reader write 24:00) is the end of
-- the day, and Sunday's ranges past midnight continue on Monday.
CREATE OR REPLACE FUNCTION opening_hours_week(hours jsonb) RETURNS int4multirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(hours) = 'array' AND jsonb_array_length(hours) > 0 THEN (
    SELECT coalesce(range_agg(piece), '{}'::int4multirange)
    FROM (
      SELECT day.d * 1440 + t.o AS s,
             day.d * 1440 + CASE WHEN spec->>'closes' IN ('00:00', '24:00', '23:59') THEN 1440 WHEN t.c <= t.o THEN t.c + 1440 ELSE t.c END AS e
      FROM jsonb_array_elements(hours) AS spec
      CROSS JOIN LATERAL (
        SELECT split_part(spec->>'opens', ':', 1)::int * 60 + split_part(spec->>'opens', ':', 2)::int AS o,
               split_part(spec->>'closes', ':', 1)::int * 60 + split_part(spec->>'closes', ':', 2)::int AS c
      ) AS t
      CROSS JOIN LATERAL (
        SELECT array_position(ARRAY['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'], name) - 1 AS d
        FROM jsonb_array_elements_text(spec->'days') AS name
      ) AS day
      WHERE day.d IS NOT NULL
    ) AS span
    CROSS JOIN LATERAL (VALUES (int4range(span.s, least(span.e, 10080))), (CASE WHEN span.e > 10080 THEN int4range(0, span.e - 10080) END)) AS pieces(piece)
    WHERE piece IS NOT NULL
  ) END
$$;--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "open_week" "int4multirange" GENERATED ALWAYS AS (opening_hours_week(opening_hours)) STORED;--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'earthdistance') THEN
    CREATE INDEX "businesses_earth_idx" ON "businesses" USING gist (ll_to_earth("lat", "lng")) WHERE "businesses"."status" = 'active';
  END IF;
END $$;
