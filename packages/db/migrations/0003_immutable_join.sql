-- array_to_string is only STABLE, so it cannot feed a generated column; for text[] it does not
-- depend on any setting, so this wrapper is honestly IMMUTABLE.
CREATE OR REPLACE FUNCTION immutable_join(text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_to_string($1, ' ') $$;
