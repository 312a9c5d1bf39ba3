CREATE TABLE "views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid,
	"role_id" uuid,
	"grid" text NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "views_one_owner" CHECK (("views"."owner_id" is null) <> ("views"."role_id" is null)),
	CONSTRAINT "views_query_length" CHECK (length("views"."query") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "views_owner_grid_name_unique" ON "views" USING btree ("owner_id","grid","name");--> statement-breakpoint
CREATE UNIQUE INDEX "views_role_grid_name_unique" ON "views" USING btree ("role_id","grid","name");