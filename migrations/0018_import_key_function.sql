-- Lower-cases every element of a text array, for the GIN index by which CSV imports find a
-- prospect's duplicates by any of its e-mail addresses, case-insensitively. An index expression
-- may only call immutable functions, and lower() over an array's elements needs a subquery,
-- so it takes this wrapper. An empty array gives NULL, which overlaps nothing, as it should.
CREATE OR REPLACE FUNCTION cadence_system.lower_text_array(text[])
RETURNS text[]
LANGUAGE sql
IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT array_agg(lower(e)) FROM unnest($1) AS e
$$;
--> statement-breakpoint
-- Every role that writes prospects evaluates it for the index, and it reveals nothing, so unlike
-- enqueue_jobs it stays executable by PUBLIC; the grant keeps API transactions working where a
-- deployment revokes PUBLIC's default EXECUTE. cadence_app has USAGE on the schema since 0004.
GRANT EXECUTE ON FUNCTION cadence_system.lower_text_array(text[]) TO cadence_app;
