-- Import keys (x-importKey): a GIN index over prospects' lower-cased e-mail addresses, by which CSV
-- imports find a row's duplicates. accounts' domain and name need none: their search indexes serve.
CREATE INDEX "prospects_emails_import_key_idx" ON "prospects" USING gin (cadence_system.lower_text_array("emails"));