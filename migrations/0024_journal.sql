-- The journal (extensions §17): one hash chain per Business of every issued record, appended in the change's own
-- transaction. WITHOUT ROWID on (business_id, seq): the chain is read in seq order and a second entry at a seq
-- (a fork) is refused by the key itself.
CREATE TABLE `journal_entries` (
	`business_id` integer NOT NULL REFERENCES `businesses`(`id`),
	`seq` integer NOT NULL,
	`at` text NOT NULL,
	`kind` text NOT NULL,
	`record_type` text NOT NULL,
	`record_id` integer NOT NULL,
	`record_number` text,
	`data` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY (`business_id`, `seq`)
) WITHOUT ROWID;--> statement-breakpoint
-- Verify asks, for each entry, whether it is its record's newest: one seek here.
CREATE INDEX `journal_entries_record` ON `journal_entries` (`business_id`, `record_type`, `record_id`, `seq`);--> statement-breakpoint
CREATE TRIGGER `journal_entries_no_update` BEFORE UPDATE ON `journal_entries`
BEGIN
	SELECT RAISE(ABORT, 'journal entries are never changed');
END;--> statement-breakpoint
CREATE TRIGGER `journal_entries_no_delete` BEFORE DELETE ON `journal_entries`
BEGIN
	SELECT RAISE(ABORT, 'journal entries are never deleted');
END;--> statement-breakpoint
-- SQL has no SHA-256: the Businesses that were here before the journal get their entries for what they had already
-- issued and recorded from the service's code at its next start (modules/journal backfill), which empties this list.
CREATE TABLE `journal_backfill` (`business_id` integer PRIMARY KEY NOT NULL);--> statement-breakpoint
INSERT INTO `journal_backfill` (`business_id`) SELECT `id` FROM `businesses`;
