CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	`status` text NOT NULL,
	`amount` text NOT NULL,
	`amount_minor` numeric NOT NULL,
	`currency` text NOT NULL,
	`payment_date` text NOT NULL,
	`payment_method` text NOT NULL,
	`bank_account_id` integer,
	`reference` text,
	`notes` text,
	`recorded_by` text,
	`amended_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bank_account_id`) REFERENCES `bank_accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payments_business` ON `payments` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `payments_document` ON `payments` (`document_id`,`status`);--> statement-breakpoint
CREATE INDEX `payments_date` ON `payments` (`business_id`,`payment_date`);--> statement-breakpoint
CREATE TABLE `receipts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`payment_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	`receipt_number` text NOT NULL,
	`issue_date` text NOT NULL,
	`voided_at` text,
	`voided_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_payment` ON `receipts` (`payment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_number` ON `receipts` (`business_id`,`receipt_number`);--> statement-breakpoint
CREATE INDEX `receipts_business` ON `receipts` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `receipts_document` ON `receipts` (`document_id`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`type` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` integer NOT NULL,
	`message_id` text NOT NULL,
	`occurred_at` text NOT NULL,
	`dispatched_at` text,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_message_id_unique` ON `outbox` (`message_id`);--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox` (`dispatched_at`,`id`);