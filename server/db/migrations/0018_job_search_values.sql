-- The trigram index leaves status and conclusion out: each is a handful of values, so a
-- filter word names the values that hold it and their jobs are found through the sort
-- indexes (jobs.service.ts). In the index they were its densest lists (`completed` named a
-- sixth of all jobs, ~114 ms to decode at 1M), and a sort by status or conclusion can now
-- read a value's jobs in number order. `search` keeps all four fields for testing a job;
-- the index is on number and description, stored, so that its rechecks read the text
-- rather than compute it (computed, they cost ~2.5 times as much).
DROP INDEX jobs_search_trgm_index;
--> statement-breakpoint
ALTER TABLE jobs ADD COLUMN indexed_text text NOT NULL GENERATED ALWAYS AS
  (lower(friendly_number || ' ' || description)) STORED;
--> statement-breakpoint
CREATE INDEX jobs_indexed_text_trgm_index ON jobs USING gin (indexed_text gin_trgm_ops);
