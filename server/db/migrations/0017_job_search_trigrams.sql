-- The job search moves into PostgreSQL's own structures (measured in bench/README.md): the
-- terms and postings of 0015, with every job's place in four orders, took 17 to 22 times
-- the jobs table, and ~7 ms a job to keep current. Now a job's list fields, in lower case,
-- are one generated column under a trigram index (rare filters: its candidates, then sorted),
-- the sort indexes are walked testing each job (common filters: the first matches come
-- first), and an index on a hash of the id gives a random order to estimate totals from.
-- Triggers keep only the count of jobs and the generation, per statement.
DROP TRIGGER job_search_inserted ON jobs;
--> statement-breakpoint
DROP TRIGGER job_search_updated ON jobs;
--> statement-breakpoint
DROP TRIGGER job_search_deleted ON jobs;
--> statement-breakpoint
DROP TRIGGER job_search_truncated ON jobs;
--> statement-breakpoint
DROP TRIGGER job_search_generation ON jobs;
--> statement-breakpoint
DROP TABLE job_postings, job_keys, job_terms, job_number_characters;
--> statement-breakpoint
DROP FUNCTION job_search_follow_changes(), job_search_truncated(), job_search_next_generation(),
  job_search_add(jobs), job_search_remove(jobs), job_search_rebuild(),
  job_key_between(bigint, bigint), job_group_spacing(bigint, bigint),
  job_terms_of(text, text, text), job_number_inner_characters(text), job_search_prefix_end(text);
--> statement-breakpoint
DROP INDEX jobs_friendly_number_trgm_index;
--> statement-breakpoint
-- One space apart: a filter word holds no whitespace, so it never spans two fields.
ALTER TABLE jobs ADD COLUMN search text NOT NULL GENERATED ALWAYS AS
  (lower(friendly_number || ' ' || status || ' ' || conclusion || ' ' || description)) STORED;
--> statement-breakpoint
CREATE INDEX jobs_search_trgm_index ON jobs USING gin (search gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX jobs_sample_order_index ON jobs (uuid_hash(id));
--> statement-breakpoint
-- The count of jobs, and the generation: it moves on with every statement that changes the
-- jobs, so a server may keep a filter's total and trust it while the generation holds.
CREATE FUNCTION job_totals_follow_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE job_totals SET jobs = jobs + (SELECT count(*) FROM new_jobs), generation = generation + 1;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE job_totals SET jobs = jobs - (SELECT count(*) FROM old_jobs), generation = generation + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE job_totals SET generation = generation + 1;
  ELSE
    UPDATE job_totals SET jobs = 0, generation = generation + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER job_totals_inserted AFTER INSERT ON jobs
  REFERENCING NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_totals_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_totals_deleted AFTER DELETE ON jobs
  REFERENCING OLD TABLE AS old_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_totals_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_totals_updated AFTER UPDATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_totals_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_totals_truncated AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_totals_follow_changes();
--> statement-breakpoint
UPDATE job_totals SET jobs = (SELECT count(*) FROM jobs), generation = generation + 1;
