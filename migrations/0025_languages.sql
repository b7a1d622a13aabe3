-- Languages of documents and emails (extensions §18): the Business's (default en), the Client's (null: the
-- Business's), and each document's, fixed at issue (null on a Draft, which follows its Client).
ALTER TABLE `businesses` ADD `language` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `language` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `language` text;--> statement-breakpoint
-- Every document issued before languages existed was written in English, and stays so.
UPDATE `documents` SET `language` = 'en' WHERE `status` <> 'draft';
