-- The search's generation: it moves on with every change to the jobs, and with every
-- rebuild (which numbers the terms anew). A server may keep what a filter word resolved to
-- (its terms and counts) and trust it only while a statement reading the search sees the
-- generation it was resolved at: no notification to wait for, on any server.
ALTER TABLE job_totals ADD COLUMN generation bigint NOT NULL DEFAULT 0;
--> statement-breakpoint
CREATE FUNCTION job_search_next_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE job_totals SET generation = generation + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER job_search_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_search_next_generation();
--> statement-breakpoint
CREATE TRIGGER job_search_generation AFTER TRUNCATE ON job_terms
  FOR EACH STATEMENT EXECUTE FUNCTION job_search_next_generation();
