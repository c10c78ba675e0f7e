-- A batch's items are read by batch (batch_items_batch_id_idx) and written twice for every record of a bulk upsert, bulk action or import (issue #26): the five indexes of their filterable attributes (schema/batchItem.json, x-index: false) made each write ten index entries more. Filters and sorts on them still work, over the rows the batch filter narrows to.
DROP INDEX "batch_items_created_at_idx";--> statement-breakpoint
DROP INDEX "batch_items_failed_idx";--> statement-breakpoint
DROP INDEX "batch_items_item_id_idx";--> statement-breakpoint
DROP INDEX "batch_items_state_idx";--> statement-breakpoint
DROP INDEX "batch_items_updated_at_idx";