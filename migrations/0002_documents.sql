CREATE TABLE `document_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` integer NOT NULL,
	`position` integer NOT NULL,
	`product_id` integer,
	`description` text NOT NULL,
	`quantity` text NOT NULL,
	`unit` text NOT NULL,
	`unit_price` text NOT NULL,
	`vat_rate` text NOT NULL,
	`vat_category` text NOT NULL,
	`vat_exemption_code` text,
	`notes` text,
	`net_amount` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_lines_document` ON `document_lines` (`document_id`,`position`);--> statement-breakpoint
CREATE TABLE `document_vat_bands` (
	`document_id` integer NOT NULL,
	`category` text NOT NULL,
	`rate` text NOT NULL,
	`net` text NOT NULL,
	`vat` text NOT NULL,
	`net_minor` numeric NOT NULL,
	`vat_minor` numeric NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `document_vat_bands_document` ON `document_vat_bands` (`document_id`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`document_number` text,
	`requested_document_number` text,
	`client_id` integer NOT NULL,
	`client_snapshot` text,
	`currency` text NOT NULL,
	`issue_date` text,
	`due_date` text,
	`delivery_date` text,
	`payment_terms` integer NOT NULL,
	`notes` text,
	`bank_account_ids` text DEFAULT '[]' NOT NULL,
	`proforma_id` integer,
	`converted_into_id` integer,
	`credited_document_id` integer,
	`is_test` integer DEFAULT false NOT NULL,
	`net_total` text NOT NULL,
	`vat_total` text NOT NULL,
	`total` text NOT NULL,
	`net_minor` numeric NOT NULL,
	`vat_minor` numeric NOT NULL,
	`total_minor` numeric NOT NULL,
	`amount_paid` text DEFAULT '0' NOT NULL,
	`paid_minor` numeric DEFAULT '0' NOT NULL,
	`last_sent` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `documents_business` ON `documents` (`business_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `documents_number` ON `documents` (`business_id`,`document_number`) WHERE document_number IS NOT NULL;--> statement-breakpoint
CREATE INDEX `documents_client` ON `documents` (`business_id`,`client_id`,`issue_date`);--> statement-breakpoint
CREATE INDEX `documents_issue_date` ON `documents` (`business_id`,`issue_date`);--> statement-breakpoint
CREATE INDEX `documents_due` ON `documents` (`business_id`,`status`,`due_date`);