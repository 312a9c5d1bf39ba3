DROP INDEX "jobs_search_trgm_index";--> statement-breakpoint
CREATE INDEX "jobs_friendly_number_trgm_index" ON "jobs" USING gin (lower("friendly_number") gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "search";--> statement-breakpoint
-- The job search lives here, kept by triggers: no server holds a copy that grows with the
-- jobs, and a change made any way (a load, a tool, plain SQL) is searched at once.
-- A filter word matches a job when it is a substring of the job's number (trigram index on
-- jobs) or of one of its terms: each description word, its status and its conclusion, in
-- lower case. Each term has its postings, one per job that holds it, carrying the job's
-- place in each sort order, so one term's jobs in any order are an index range scan.
-- The servers that held an index in memory rebuilt it on this; nothing listens any more.
DROP TRIGGER jobs_changed ON jobs;
--> statement-breakpoint
DROP FUNCTION notify_jobs_changed();
--> statement-breakpoint
CREATE TABLE job_terms (
  id serial PRIMARY KEY,
  term text NOT NULL,
  job_count integer NOT NULL
);
--> statement-breakpoint
-- md5: a b-tree entry holds at most ~2.7 KB, and a description word may be longer.
CREATE UNIQUE INDEX job_terms_term_md5_index ON job_terms (md5(term));
--> statement-breakpoint
CREATE INDEX job_terms_term_trgm_index ON job_terms USING gin (term gin_trgm_ops);
--> statement-breakpoint
-- Each job's place in each order as an integer: ordering by status_key is ordering by
-- (status, friendly_number). Keys leave gaps, so a new job takes one between its neighbours.
CREATE TABLE job_keys (
  job_id uuid PRIMARY KEY,
  number_key bigint NOT NULL,
  status_key bigint NOT NULL,
  conclusion_key bigint NOT NULL,
  description_key bigint NOT NULL,
  -- The job's number in lower case, under a b-tree that carries every key: the jobs whose
  -- number starts with a word, in any order, are an index-only range scan.
  number text NOT NULL
);
--> statement-breakpoint
CREATE INDEX job_keys_number_index ON job_keys (number text_pattern_ops)
  INCLUDE (number_key, status_key, conclusion_key, description_key);
--> statement-breakpoint
CREATE UNIQUE INDEX job_keys_number_key_index ON job_keys (number_key) INCLUDE (job_id);
--> statement-breakpoint
CREATE UNIQUE INDEX job_keys_status_key_index ON job_keys (status_key) INCLUDE (job_id);
--> statement-breakpoint
CREATE UNIQUE INDEX job_keys_conclusion_key_index ON job_keys (conclusion_key) INCLUDE (job_id);
--> statement-breakpoint
CREATE UNIQUE INDEX job_keys_description_key_index ON job_keys (description_key) INCLUDE (job_id);
--> statement-breakpoint
-- One row per (term, job). Its indexes are made by job_search_rebuild: built after a bulk
-- insert rather than kept up row by row.
CREATE TABLE job_postings (
  term integer NOT NULL,
  number_key bigint NOT NULL,
  status_key bigint NOT NULL,
  conclusion_key bigint NOT NULL,
  description_key bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE job_totals (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  jobs bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO job_totals (jobs) VALUES (0);
--> statement-breakpoint
-- How often each character occurs in the jobs' numbers (lower case) after their first: a
-- word whose first character never does can only match a number at its start, which a
-- b-tree range finds (J-0012 among a million numbers: 1,000 index entries, where the
-- trigram index reads ~640 pages).
CREATE TABLE job_number_characters (
  "character" text PRIMARY KEY,
  inner_count bigint NOT NULL
);
--> statement-breakpoint
-- The characters of a number after its first.
CREATE FUNCTION job_number_inner_characters(friendly_number text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_split_to_table(substr(lower(friendly_number), 2), '')
$$;
--> statement-breakpoint
-- A filter word as a LIKE pattern: lower case by the database's own rules (the same lower()
-- that made the terms), wildcards and the escape character taken literally.
CREATE FUNCTION job_search_pattern(word text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '%' || replace(replace(replace(lower(word), '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
--> statement-breakpoint
-- Where the numbers starting with a word end, in text_pattern_ops order (code points): the
-- word in lower case with its last character one higher.
CREATE FUNCTION job_search_prefix_end(word text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(lower(word), -1) || chr(ascii(right(lower(word), 1)) + 1)
$$;
--> statement-breakpoint
-- A job's terms. Splitting on ASCII whitespace only is safe: a filter word, split on any
-- whitespace, can only lie within one of the pieces.
CREATE FUNCTION job_terms_of(status text, conclusion text, description text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT term FROM (
    SELECT lower(status)
    UNION ALL SELECT lower(conclusion)
    UNION ALL SELECT regexp_split_to_table(lower(description), '[ \t\n\r\f\v]+')
  ) AS words(term)
  WHERE term <> ''
$$;
--> statement-breakpoint
-- A key between two neighbours' (either may be missing): right after the lower one when
-- the gap is wide (so jobs appended one after another use it up slowly), else halfway;
-- null when there is no room left.
CREATE FUNCTION job_key_between(lo bigint, hi bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN lo IS NULL AND hi IS NULL THEN 0
    WHEN lo IS NULL THEN hi - 4096
    WHEN hi IS NULL THEN lo + 4096
    WHEN hi - lo > 8192 THEN lo + 4096
    WHEN hi - lo > 1 THEN lo + (hi - lo) / 2
  END
$$;
--> statement-breakpoint
-- How far apart a rebuild puts consecutive groups of equal values in one order (within a
-- group, jobs are 4096 apart): room for 16 times the largest group, at least 2^32, while
-- every group still fits below 2^62.
CREATE FUNCTION job_group_spacing(groups bigint, largest bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT least(greatest(4294967296, 65536 * (largest + 1)), 4611686018427387904 / (groups + 1))
$$;
--> statement-breakpoint
-- Builds the whole search from the jobs in one pass: after a bulk load (which skips the
-- triggers), or when a new job found no room between its neighbours' keys.
CREATE FUNCTION job_search_rebuild() RETURNS void LANGUAGE plpgsql
SET work_mem = '256MB' SET maintenance_work_mem = '512MB' AS $$
DECLARE
  total bigint;
  number_spacing bigint;
  status_spacing bigint;
  conclusion_spacing bigint;
  description_spacing bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('job_search'));
  TRUNCATE job_postings, job_keys, job_terms, job_number_characters;
  DROP INDEX IF EXISTS job_postings_number_index, job_postings_status_index,
    job_postings_conclusion_index, job_postings_description_index;

  SELECT count(*) INTO total FROM jobs;
  number_spacing := job_group_spacing(total, 1);
  SELECT job_group_spacing(count(*), max(n)) INTO status_spacing
    FROM (SELECT count(*) AS n FROM jobs GROUP BY status) AS g;
  SELECT job_group_spacing(count(*), max(n)) INTO conclusion_spacing
    FROM (SELECT count(*) AS n FROM jobs GROUP BY conclusion) AS g;
  SELECT job_group_spacing(count(*), max(n)) INTO description_spacing
    FROM (SELECT count(*) AS n FROM jobs GROUP BY description) AS g;

  INSERT INTO job_keys (job_id, number_key, status_key, conclusion_key, description_key, number)
  SELECT id,
    row_number() OVER (ORDER BY friendly_number) * number_spacing,
    dense_rank() OVER (ORDER BY status) * status_spacing
      + row_number() OVER (PARTITION BY status ORDER BY friendly_number) * 4096,
    dense_rank() OVER (ORDER BY conclusion) * conclusion_spacing
      + row_number() OVER (PARTITION BY conclusion ORDER BY friendly_number) * 4096,
    dense_rank() OVER (ORDER BY description) * description_spacing
      + row_number() OVER (PARTITION BY description ORDER BY friendly_number) * 4096,
    lower(friendly_number)
  FROM jobs;

  INSERT INTO job_terms (term, job_count)
  SELECT term, count(*)
  FROM jobs CROSS JOIN LATERAL job_terms_of(status, conclusion, description) AS term
  GROUP BY term;

  INSERT INTO job_number_characters ("character", inner_count)
  SELECT c, count(*)
  FROM jobs CROSS JOIN LATERAL job_number_inner_characters(friendly_number) AS c
  GROUP BY c;

  INSERT INTO job_postings (term, number_key, status_key, conclusion_key, description_key)
  SELECT t.id, k.number_key, k.status_key, k.conclusion_key, k.description_key
  FROM jobs AS j
  JOIN job_keys AS k ON k.job_id = j.id
  CROSS JOIN LATERAL job_terms_of(j.status, j.conclusion, j.description) AS w(term)
  JOIN job_terms AS t ON t.term = w.term;

  CREATE UNIQUE INDEX job_postings_number_index ON job_postings (term, number_key);
  CREATE UNIQUE INDEX job_postings_status_index ON job_postings (term, status_key);
  CREATE UNIQUE INDEX job_postings_conclusion_index ON job_postings (term, conclusion_key);
  CREATE UNIQUE INDEX job_postings_description_index ON job_postings (term, description_key);
  UPDATE job_totals SET jobs = total;
  ANALYZE job_keys;
  ANALYZE job_terms;
  ANALYZE job_postings;
END
$$;
--> statement-breakpoint
-- Adds one job: keys between its neighbours' in each order (jobs without keys yet, such
-- as others of the same statement, are passed over), its terms and postings. False when
-- some order has no room left at its place; the caller then rebuilds.
CREATE FUNCTION job_search_add(job jobs) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  keys job_keys;
BEGIN
  keys.job_id := job.id;
  keys.number := lower(job.friendly_number);
  keys.number_key := job_key_between(
    (SELECT k.number_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE j.friendly_number < job.friendly_number
      ORDER BY j.friendly_number DESC LIMIT 1),
    (SELECT k.number_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE j.friendly_number > job.friendly_number
      ORDER BY j.friendly_number LIMIT 1));
  keys.status_key := job_key_between(
    (SELECT k.status_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE (j.status, j.friendly_number) < (job.status, job.friendly_number)
      ORDER BY j.status DESC, j.friendly_number DESC LIMIT 1),
    (SELECT k.status_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE (j.status, j.friendly_number) > (job.status, job.friendly_number)
      ORDER BY j.status, j.friendly_number LIMIT 1));
  keys.conclusion_key := job_key_between(
    (SELECT k.conclusion_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE (j.conclusion, j.friendly_number) < (job.conclusion, job.friendly_number)
      ORDER BY j.conclusion DESC, j.friendly_number DESC LIMIT 1),
    (SELECT k.conclusion_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE (j.conclusion, j.friendly_number) > (job.conclusion, job.friendly_number)
      ORDER BY j.conclusion, j.friendly_number LIMIT 1));
  keys.description_key := job_key_between(
    (SELECT k.description_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE (j.description, j.friendly_number) < (job.description, job.friendly_number)
      ORDER BY j.description DESC, j.friendly_number DESC LIMIT 1),
    (SELECT k.description_key FROM jobs AS j JOIN job_keys AS k ON k.job_id = j.id
      WHERE (j.description, j.friendly_number) > (job.description, job.friendly_number)
      ORDER BY j.description, j.friendly_number LIMIT 1));
  IF keys.number_key IS NULL OR keys.status_key IS NULL OR keys.conclusion_key IS NULL
      OR keys.description_key IS NULL THEN
    RETURN false;
  END IF;

  INSERT INTO job_keys VALUES (keys.*);
  INSERT INTO job_terms AS t (term, job_count)
  SELECT term, 1 FROM job_terms_of(job.status, job.conclusion, job.description) AS term
  ON CONFLICT (md5(term)) DO UPDATE SET job_count = t.job_count + 1;
  INSERT INTO job_postings (term, number_key, status_key, conclusion_key, description_key)
  SELECT t.id, keys.number_key, keys.status_key, keys.conclusion_key, keys.description_key
  FROM job_terms_of(job.status, job.conclusion, job.description) AS w(term)
  JOIN job_terms AS t ON md5(t.term) = md5(w.term);
  INSERT INTO job_number_characters AS n ("character", inner_count)
  SELECT c, count(*) FROM job_number_inner_characters(job.friendly_number) AS c GROUP BY c
  ON CONFLICT ("character") DO UPDATE SET inner_count = n.inner_count + excluded.inner_count;
  UPDATE job_totals SET jobs = jobs + 1;
  RETURN true;
END
$$;
--> statement-breakpoint
-- Removes one job (as it was) from the search.
CREATE FUNCTION job_search_remove(job jobs) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  removed job_keys;
BEGIN
  DELETE FROM job_keys WHERE job_id = job.id RETURNING * INTO removed;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM job_postings AS p
  USING job_terms AS t, job_terms_of(job.status, job.conclusion, job.description) AS w(term)
  WHERE md5(t.term) = md5(w.term) AND p.term = t.id AND p.number_key = removed.number_key;
  UPDATE job_terms AS t SET job_count = t.job_count - 1
  FROM job_terms_of(job.status, job.conclusion, job.description) AS w(term)
  WHERE md5(t.term) = md5(w.term);
  DELETE FROM job_terms AS t
  USING job_terms_of(job.status, job.conclusion, job.description) AS w(term)
  WHERE md5(t.term) = md5(w.term) AND t.job_count = 0;
  UPDATE job_number_characters AS n SET inner_count = n.inner_count - c.count
  FROM (SELECT c, count(*) FROM job_number_inner_characters(job.friendly_number) AS c GROUP BY c)
    AS c("character", count)
  WHERE n."character" = c."character";
  UPDATE job_totals SET jobs = jobs - 1;
END
$$;
--> statement-breakpoint
-- The triggers work per statement, over its transition tables: an UPDATE first removes
-- every changed job, then adds them back, so no job is placed next to a neighbour whose
-- keys still describe its old values. Writers take turns (advisory lock): two new jobs
-- between the same neighbours must not take the same key. A bulk load sets
-- job_search.bulk_load for its transaction and rebuilds once at the end instead.
CREATE FUNCTION job_search_follow_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  job jobs;
  crowded boolean := false;
BEGIN
  IF current_setting('job_search.bulk_load', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('job_search'));
  IF TG_OP = 'DELETE' THEN
    FOR job IN SELECT * FROM old_jobs LOOP
      PERFORM job_search_remove(job);
    END LOOP;
  ELSIF TG_OP = 'INSERT' THEN
    FOR job IN SELECT * FROM new_jobs LOOP
      IF NOT job_search_add(job) THEN
        crowded := true;
      END IF;
    END LOOP;
  ELSE
    FOR job IN SELECT * FROM old_jobs EXCEPT ALL SELECT * FROM new_jobs LOOP
      PERFORM job_search_remove(job);
    END LOOP;
    FOR job IN SELECT * FROM new_jobs EXCEPT ALL SELECT * FROM old_jobs LOOP
      IF NOT job_search_add(job) THEN
        crowded := true;
      END IF;
    END LOOP;
  END IF;
  IF crowded THEN
    PERFORM job_search_rebuild();
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER job_search_inserted AFTER INSERT ON jobs
  REFERENCING NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_search_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_search_updated AFTER UPDATE ON jobs
  REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_search_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_search_deleted AFTER DELETE ON jobs
  REFERENCING OLD TABLE AS old_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_search_follow_changes();
--> statement-breakpoint
CREATE FUNCTION job_search_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('job_search'));
  TRUNCATE job_postings, job_keys, job_terms, job_number_characters;
  UPDATE job_totals SET jobs = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER job_search_truncated AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_search_truncated();
--> statement-breakpoint
SELECT job_search_rebuild();
