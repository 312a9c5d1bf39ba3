-- Every server caches who each user is (name, email, roles); any change to users, roles
-- or role memberships tells them all to forget, whichever code or tool made it.
CREATE FUNCTION notify_identities_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('identities_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_identities_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identities_changed();
--> statement-breakpoint
CREATE TRIGGER roles_identities_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identities_changed();
--> statement-breakpoint
CREATE TRIGGER user_roles_identities_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_identities_changed();
