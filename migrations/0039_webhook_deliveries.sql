-- The webhook delivery log (schema/webhookDelivery.json): one record per (event, webhook), written by the delivery bookkeeping.
CREATE TABLE "webhook_deliveries" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"attempts" integer,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp(3) with time zone,
	"error" text,
	"event_name" text,
	"job_id" text,
	"response_status" integer,
	"state" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"event_id" bigint,
	"webhook_id" bigint,
	CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_fk" FOREIGN KEY ("org_id","event_id") REFERENCES "public"."events"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_fk" FOREIGN KEY ("org_id","webhook_id") REFERENCES "public"."webhooks"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries" USING btree ("org_id","event_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_name_idx" ON "webhook_deliveries" USING btree ("org_id","event_name","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_state_idx" ON "webhook_deliveries" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_updated_at_idx" ON "webhook_deliveries" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_id_idx" ON "webhook_deliveries" USING btree ("org_id","webhook_id","id");