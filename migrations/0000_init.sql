CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_business` ON `api_keys` (`business_id`);--> statement-breakpoint
CREATE TABLE `bank_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`name` text NOT NULL,
	`iban` text NOT NULL,
	`bic` text,
	`currency` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bank_accounts_business` ON `bank_accounts` (`business_id`,`id`);--> statement-breakpoint
CREATE TABLE `businesses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`name` text NOT NULL,
	`legal_name` text,
	`country` text NOT NULL,
	`currency` text NOT NULL,
	`vat_number` text,
	`company_id` text,
	`is_vat_payer` integer DEFAULT true NOT NULL,
	`is_test` integer DEFAULT false NOT NULL,
	`plan` text DEFAULT 'pro' NOT NULL,
	`email` text,
	`address` text,
	`city` text,
	`postal_code` text,
	`issuing_limit` integer DEFAULT 100 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `businesses_public_id_unique` ON `businesses` (`public_id`);--> statement-breakpoint
CREATE TABLE `number_counters` (
	`business_id` integer NOT NULL,
	`kind` text NOT NULL,
	`pattern` text NOT NULL,
	`period` text NOT NULL,
	`highest` integer NOT NULL,
	PRIMARY KEY(`business_id`, `kind`, `pattern`, `period`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `numberings` (
	`business_id` integer NOT NULL,
	`kind` text NOT NULL,
	`pattern` text NOT NULL,
	PRIMARY KEY(`business_id`, `kind`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `clients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`name` text NOT NULL,
	`legal_name` text,
	`contact_person` text,
	`email` text,
	`phone` text,
	`address` text,
	`city` text,
	`postal_code` text,
	`country` text NOT NULL,
	`vat_number` text,
	`vat_verified` integer DEFAULT false NOT NULL,
	`account_code` text,
	`currency` text NOT NULL,
	`payment_terms` integer DEFAULT 30 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`credit_limit` text,
	`notes` text,
	`preferred_bank_account_ids` text DEFAULT '[]' NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `clients_business` ON `clients` (`business_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `clients_account_code` ON `clients` (`business_id`,`account_code`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`api_key_id` integer NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`content_type` text NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`api_key_id`, `key`),
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `request_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`request_id` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`credential_type` text NOT NULL,
	`credential_name` text NOT NULL,
	`ip` text,
	`at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `request_log_business` ON `request_log` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `request_log_at` ON `request_log` (`at`);