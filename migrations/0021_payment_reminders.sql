CREATE TABLE `reminder_settings` (
	`business_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`steps` text NOT NULL,
	`first_days` integer,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reminder_steps` (
	`document_id` integer NOT NULL,
	`step_days` integer NOT NULL,
	`business_id` integer NOT NULL,
	`state` text NOT NULL,
	`claim` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_try_at` text,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`document_id`, `step_days`),
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reminder_steps_open` ON `reminder_steps` (`state`, `next_try_at`);--> statement-breakpoint
CREATE INDEX `reminder_steps_business` ON `reminder_steps` (`business_id`, `updated_at`);--> statement-breakpoint
ALTER TABLE `clients` ADD `reminders` integer DEFAULT true NOT NULL;
