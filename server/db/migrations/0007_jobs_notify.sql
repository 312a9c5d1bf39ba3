-- Every server keeps the job list in a search index; any change to the jobs tells them
-- all to rebuild it, whether a load (after each batch), a tool or plain SQL made it.
CREATE FUNCTION notify_jobs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('jobs_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION notify_jobs_changed();
