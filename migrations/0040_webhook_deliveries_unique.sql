-- One delivery log record per (event, webhook): the delivery bookkeeping upserts by it (runtime/webhooks/delivery-log.ts), one statement per set.
-- A deleted webhook leaves its records with a null webhook_id, which the index does not constrain.
CREATE UNIQUE INDEX "webhook_deliveries_event_webhook_unique" ON "webhook_deliveries" USING btree ("org_id", "event_id", "webhook_id");
