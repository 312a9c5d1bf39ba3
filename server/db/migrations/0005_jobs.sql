CREATE TABLE "job_details" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"samples" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"friendly_number" text NOT NULL,
	"status" text NOT NULL,
	"conclusion" text NOT NULL,
	"description" text NOT NULL,
	"search" text GENERATED ALWAYS AS (lower("jobs"."friendly_number" || ' ' || "jobs"."status" || ' ' || "jobs"."conclusion" || ' ' || "jobs"."description")) STORED NOT NULL,
	CONSTRAINT "jobs_friendlyNumber_unique" UNIQUE("friendly_number")
);
--> statement-breakpoint
ALTER TABLE "job_details" ADD CONSTRAINT "job_details_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_status_friendly_number_index" ON "jobs" USING btree ("status","friendly_number");--> statement-breakpoint
CREATE INDEX "jobs_conclusion_friendly_number_index" ON "jobs" USING btree ("conclusion","friendly_number");--> statement-breakpoint
CREATE INDEX "jobs_description_friendly_number_index" ON "jobs" USING btree ("description","friendly_number");--> statement-breakpoint
CREATE INDEX "jobs_search_trgm_index" ON "jobs" USING gin ("search" gin_trgm_ops);