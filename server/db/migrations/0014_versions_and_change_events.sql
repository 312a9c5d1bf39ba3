CREATE TABLE "change_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"resource" text NOT NULL,
	"item_id" text NOT NULL,
	"entity_name" text,
	"action" text NOT NULL,
	"version" integer NOT NULL,
	"actor_id" uuid,
	"actor_name" text
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "entity_records" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "routes" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "change_events_at_index" ON "change_events" USING btree ("at");--> statement-breakpoint
-- Every server's event stream hears each change once it commits (NOTIFY waits for the commit).
CREATE FUNCTION notify_change_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('change_events', json_build_object(
    'eventId', NEW.id, 'resource', NEW.resource, 'id', NEW.item_id,
    'entityName', NEW.entity_name, 'action', NEW.action, 'version', NEW.version,
    'actorId', NEW.actor_id, 'actor', NEW.actor_name)::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER change_events_notify AFTER INSERT ON change_events
  FOR EACH ROW EXECUTE FUNCTION notify_change_event();
