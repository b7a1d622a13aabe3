-- Refunds of Credit Notes (extensions §20): the money a Credit Note owed the Client, recorded as gone back.
CREATE TABLE `refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	`status` text NOT NULL,
	`amount` text NOT NULL,
	`amount_minor` numeric NOT NULL,
	`currency` text NOT NULL,
	`refund_date` text NOT NULL,
	`method` text NOT NULL,
	`bank_account_id` integer,
	`reference` text,
	`notes` text,
	`recorded_by` text,
	`voided_at` text,
	`voided_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bank_account_id`) REFERENCES `bank_accounts`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE INDEX `refunds_business` ON `refunds` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `refunds_document` ON `refunds` (`document_id`,`status`,`refund_date`,`amount_minor`);--> statement-breakpoint
ALTER TABLE `documents` ADD `amount_refunded` text DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX `documents_credited` ON `documents` (`credited_document_id`);
