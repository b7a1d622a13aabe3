CREATE TABLE `mail_daily_counts` (
	`business_id` integer NOT NULL,
	`day` text NOT NULL,
	`recipients` integer NOT NULL,
	PRIMARY KEY(`business_id`, `day`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `mailboxes` (
	`business_id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`from_address` text NOT NULL,
	`smtp_url` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
