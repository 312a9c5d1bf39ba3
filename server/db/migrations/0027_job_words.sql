-- A word of the generated vocabulary (0.3 % of jobs) cost ~30 ms a page through the trigram
-- index: its trigrams' lists, each far longer than the word's, decoded and intersected
-- (13,905 candidates for `boustu`'s 3,282 jobs), the candidates rechecked. The words of the
-- descriptions are now indexed whole, and the words ever written kept in a dictionary under
-- a trigram index of its own: a filter word is looked up as the dictionary words that hold
-- it (a filter word holds no whitespace, so it is within one word of a description), ~4 ms
-- for `boustu`. That leaves out the number: the characters of the numbers are kept too, and
-- a word with a character no number has is in no number. And words past 200 characters
-- (an index entry has a limit, a dictionary entry too): their first 200 are indexed, and
-- they are kept whole in a table of their own under a trigram index; a filter word in one
-- of them is not looked up so.
-- Only spaces, tabs and line breaks part words: where PostgreSQL and the client disagree
-- on other white space, a word is kept longer, and still holds what it holds. Words and
-- characters are not removed when the last job holding them goes: they then look up
-- nothing.
CREATE FUNCTION job_description_words(description text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT regexp_split_to_array(
    regexp_replace(lower(description), '([^ \t\n\r\f\v]{200})[^ \t\n\r\f\v]+', '\1', 'g'),
    '[ \t\n\r\f\v]+')
$$;
--> statement-breakpoint
CREATE FUNCTION job_description_long_words(description text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT w FROM regexp_split_to_table(lower(description), '[ \t\n\r\f\v]+') AS w
  WHERE length(w) > 200
$$;
--> statement-breakpoint
CREATE TABLE job_words (word text PRIMARY KEY);
--> statement-breakpoint
CREATE INDEX job_words_trgm_index ON job_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
-- The dictionary's words that hold a filter word, at most `most`, through the trigram index:
-- the planner, told to stop at `most` and unable to guess what a parameter's pattern holds,
-- would rather scan the dictionary (~20 ms for 86,000 words of prose).
CREATE FUNCTION job_words_holding(filter_word text, most integer) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE STRICT
SET enable_seqscan = off SET enable_indexscan = off SET enable_indexonlyscan = off AS $$
  SELECT array(SELECT d.word FROM job_words AS d
    WHERE d.word LIKE job_search_pattern(filter_word) LIMIT most)
$$;
--> statement-breakpoint
CREATE TABLE job_long_words (hash text PRIMARY KEY, word text NOT NULL);
--> statement-breakpoint
CREATE INDEX job_long_words_trgm_index ON job_long_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
-- Whether a word past 200 characters holds a filter word (as job_words_holding).
CREATE FUNCTION job_long_words_hold(filter_word text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE STRICT
SET enable_seqscan = off SET enable_indexscan = off SET enable_indexonlyscan = off AS $$
  SELECT EXISTS (SELECT FROM job_long_words AS l WHERE l.word LIKE job_search_pattern(filter_word))
$$;
--> statement-breakpoint
CREATE TABLE job_number_characters (character text PRIMARY KEY);
--> statement-breakpoint
CREATE FUNCTION job_words_follow_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM job_words;
    DELETE FROM job_long_words;
    DELETE FROM job_number_characters;
  ELSE
    -- In order, so that two writers adding the same new words cannot wait on each other.
    INSERT INTO job_words
      SELECT DISTINCT unnest(job_description_words(description)) FROM new_jobs ORDER BY 1
      ON CONFLICT DO NOTHING;
    INSERT INTO job_long_words
      SELECT DISTINCT md5(w), w FROM new_jobs, job_description_long_words(description) AS w
      ORDER BY 1 ON CONFLICT DO NOTHING;
    INSERT INTO job_number_characters
      SELECT DISTINCT unnest(string_to_array(lower(friendly_number), NULL)) FROM new_jobs
      ORDER BY 1 ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER job_words_inserted AFTER INSERT ON jobs
  REFERENCING NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_words_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_words_updated AFTER UPDATE ON jobs
  REFERENCING NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_words_follow_changes();
--> statement-breakpoint
CREATE TRIGGER job_words_truncated AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_words_follow_changes();
--> statement-breakpoint
INSERT INTO job_words SELECT DISTINCT unnest(job_description_words(description)) FROM jobs;
--> statement-breakpoint
INSERT INTO job_long_words
  SELECT DISTINCT md5(w), w FROM jobs, job_description_long_words(description) AS w;
--> statement-breakpoint
INSERT INTO job_number_characters
  SELECT DISTINCT unnest(string_to_array(lower(friendly_number), NULL)) FROM jobs;
--> statement-breakpoint
CREATE INDEX "jobs_description_words_index" ON "jobs" USING gin (job_description_words("description"));
