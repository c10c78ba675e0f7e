-- Events recorded before events.event_at existed get it from created_at: each was recorded in the transaction of its change, as new ones are.
-- Row-level security is forced on tenant tables, even for their owner; it is lifted for this one statement so every org's rows are filled.
ALTER TABLE "events" NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
UPDATE "events" SET "event_at" = "created_at" WHERE "event_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "events" FORCE ROW LEVEL SECURITY;
