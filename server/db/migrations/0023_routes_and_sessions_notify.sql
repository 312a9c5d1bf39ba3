-- Every server caches the route-permission table: any change to it tells them all to
-- reload, whichever code or tool made it (before, only the API's own changes did).
CREATE FUNCTION notify_route_permissions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('route_permissions_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER routes_permissions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON routes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_route_permissions_changed();
--> statement-breakpoint
-- A session (a refresh-token family) that ends (logout, reuse, a password set) is named to
-- every server, which then refuses its access tokens (PostgreSQL folds a family's repeats
-- within one transaction into one notification).
CREATE FUNCTION notify_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sessions_ended', NEW.family_id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_session_ended AFTER UPDATE OF revoked_at ON refresh_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION notify_session_ended();
--> statement-breakpoint
-- What a starting (or reconnecting) server reads: the sessions ended in the last minutes.
CREATE INDEX "refresh_tokens_revoked_at_index" ON "refresh_tokens" USING btree ("revoked_at") WHERE "refresh_tokens"."revoked_at" is not null;
