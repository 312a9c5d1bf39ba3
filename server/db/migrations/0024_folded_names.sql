DROP INDEX "audit_events_actor_name_at_id_index";--> statement-breakpoint
DROP INDEX "audit_events_actor_name_action_at_id_index";--> statement-breakpoint
CREATE INDEX "audit_events_actor_folded_at_id_index" ON "audit_events" USING btree (lower(normalize("actor_name", NFKC)),"at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_actor_folded_action_at_id_index" ON "audit_events" USING btree (lower(normalize("actor_name", NFKC)),"action","at" DESC NULLS LAST,"id" DESC NULLS LAST);