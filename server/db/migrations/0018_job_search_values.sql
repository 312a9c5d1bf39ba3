-- The trigram index leaves status and conclusion out: each is a handful of values, so a
-- filter word names the values that hold it and their jobs are found through the sort
-- indexes (jobs.service.ts). In the index they were its densest lists (`completed` named a
-- sixth of all jobs, ~114 ms to decode at 1M), and a sort by status or conclusion can now
-- read a value's jobs in number order. `search` keeps all four fields for testing a job.
DROP INDEX jobs_search_trgm_index;
--> statement-breakpoint
CREATE INDEX jobs_text_trgm_index ON jobs USING gin (lower(friendly_number || ' ' || description) gin_trgm_ops);
