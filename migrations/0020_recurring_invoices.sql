CREATE TABLE `recurring_invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`status` text NOT NULL,
	`client_id` integer NOT NULL,
	`currency` text NOT NULL,
	`lines` text NOT NULL,
	`notes` text,
	`payment_terms` integer,
	`bank_account_ids` text DEFAULT '[]' NOT NULL,
	`buyer_reference` text,
	`order_reference` text,
	`frequency` text NOT NULL,
	`interval` integer DEFAULT 1 NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	`count` integer,
	`action` text NOT NULL,
	`next_index` integer DEFAULT 0 NOT NULL,
	`next_date` text,
	`documents_made` integer DEFAULT 0 NOT NULL,
	`last_run` text,
	`pending_document_id` integer,
	`pending_step` text,
	`pending_claim` text,
	`is_test` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `recurring_invoices_business` ON `recurring_invoices` (`business_id`,`id`);--> statement-breakpoint
-- The background task's one read when nothing is due: the earliest date of an active schedule, found in this index.
CREATE INDEX `recurring_invoices_due` ON `recurring_invoices` (`next_date`) WHERE status = 'active';--> statement-breakpoint
-- A made Draft whose issue or send is still to do (a crash between the steps): few rows, found at once.
CREATE INDEX `recurring_invoices_pending` ON `recurring_invoices` (`pending_document_id`) WHERE pending_document_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `recurring_invoice_id` integer;
