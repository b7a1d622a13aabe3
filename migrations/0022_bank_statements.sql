ALTER TABLE `documents` ADD `payment_reference` text;--> statement-breakpoint
-- Issued Invoices and Proformas before this migration take their reference as issuing now gives it (an ISO 11649 RF
-- reference from the letters and digits of the document number, the last 21 of them: src/shared/creditor-reference.ts),
-- the check digits computed here by ISO 7064 MOD 97-10, one character at a time. Two numbers of one Business that give
-- the same letters and digits (INV-1 and INV1) keep the reference for the older document only.
WITH RECURSIVE
  src(id, business_id, num) AS (
    SELECT `id`, `business_id`, upper(`document_number`) FROM `documents`
    WHERE `type` IN ('invoice', 'proforma') AND `status` <> 'draft' AND `document_number` IS NOT NULL
  ),
  strip(id, i, n, body) AS (
    SELECT id, 1, num, '' FROM src
    UNION ALL
    SELECT id, i + 1, n, body || CASE WHEN substr(n, i, 1) GLOB '[A-Z0-9]' THEN substr(n, i, 1) ELSE '' END
    FROM strip WHERE i <= length(n)
  ),
  bodies(id, body) AS (
    SELECT id, CASE WHEN length(body) > 21 THEN substr(body, length(body) - 20) ELSE body END
    FROM strip WHERE i = length(n) + 1 AND length(body) > 0
  ),
  walk(id, s, i, m) AS (
    SELECT id, body || 'RF00', 1, 0 FROM bodies
    UNION ALL
    SELECT id, s, i + 1,
      CASE WHEN substr(s, i, 1) GLOB '[0-9]' THEN (m * 10 + CAST(substr(s, i, 1) AS INTEGER)) % 97
      ELSE (m * 100 + unicode(substr(s, i, 1)) - 55) % 97 END
    FROM walk WHERE i <= length(s)
  ),
  refs(id, business_id, ref) AS (
    SELECT w.id, src.business_id, 'RF' || printf('%02d', 98 - w.m) || b.body
    FROM walk w JOIN bodies b ON b.id = w.id JOIN src ON src.id = w.id
    WHERE w.i = length(w.s) + 1
  ),
  firsts(id, ref) AS (
    SELECT min(id), ref FROM refs GROUP BY business_id, ref
  )
UPDATE `documents` SET `payment_reference` = (SELECT ref FROM firsts WHERE firsts.id = `documents`.`id`)
WHERE `id` IN (SELECT id FROM firsts);--> statement-breakpoint
CREATE UNIQUE INDEX `documents_payment_reference` ON `documents` (`business_id`,`payment_reference`) WHERE payment_reference IS NOT NULL;--> statement-breakpoint
CREATE TABLE `bank_statements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`bank_account_id` integer NOT NULL,
	`message` text NOT NULL,
	`statement_ref` text,
	`from_date` text,
	`to_date` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bank_account_id`) REFERENCES `bank_accounts`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE INDEX `bank_statements_business` ON `bank_statements` (`business_id`,`id`);--> statement-breakpoint
CREATE TABLE `bank_statement_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`statement_id` integer NOT NULL,
	`bank_account_id` integer NOT NULL,
	`position` integer NOT NULL,
	`booked_on` text,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`credit` integer NOT NULL,
	`booked` integer NOT NULL,
	`counterparty` text,
	`remittance` text,
	`structured_reference` text,
	`entry_reference` text,
	`fingerprint` text NOT NULL,
	`status` text NOT NULL,
	`document_id` integer,
	`payment_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`statement_id`) REFERENCES `bank_statements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE INDEX `bank_statement_entries_statement` ON `bank_statement_entries` (`statement_id`,`position`);--> statement-breakpoint
CREATE INDEX `bank_statement_entries_unmatched` ON `bank_statement_entries` (`business_id`,`id`) WHERE status = 'unmatched';--> statement-breakpoint
-- An entry of a bank account is held once (matched or unmatched): a second import of it is a duplicate, even when two
-- imports race, and a Payment is never recorded twice for one entry.
CREATE UNIQUE INDEX `bank_statement_entries_once` ON `bank_statement_entries` (`bank_account_id`,`fingerprint`) WHERE status IN ('matched', 'unmatched');--> statement-breakpoint
CREATE UNIQUE INDEX `bank_statement_entries_payment` ON `bank_statement_entries` (`payment_id`) WHERE payment_id IS NOT NULL;
