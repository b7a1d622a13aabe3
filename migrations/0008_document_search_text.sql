ALTER TABLE `documents` ADD `search_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Backfill of the rows written before the column: SQL's lower() folds ASCII only, so an old row's non-ASCII
-- capitals stay as they are until its next write (new writes lower-case in JS, as Clients do).
UPDATE `documents` SET `search_text` = lower(coalesce(`document_number`, '') || char(10) || coalesce(`notes`, '') || char(10) || coalesce(json_extract(`client_snapshot`, '$.name'), ''));--> statement-breakpoint
-- A due date counted past 9999-12-31 was once saved as "+010000-..."; no answer can carry it, so the document
-- could not be read. The last day a date can name is the nearest date that can be written.
UPDATE `documents` SET `due_date` = '9999-12-31' WHERE `due_date` IS NOT NULL AND length(`due_date`) <> 10;
