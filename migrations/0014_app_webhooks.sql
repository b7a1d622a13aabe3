CREATE TABLE `app_webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`attempted_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`response_excerpt` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `app_webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `app_webhook_attempts_delivery` ON `app_webhook_attempts` (`delivery_id`);--> statement-breakpoint
CREATE TABLE `app_webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_webhook_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`outbox_id` integer NOT NULL,
	`message_id` text NOT NULL,
	`event_type` text NOT NULL,
	`body` text,
	`status` text NOT NULL,
	`reason` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`claimed_until` text,
	`claim_token` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`app_webhook_id`) REFERENCES `app_webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `app_webhook_deliveries_due` ON `app_webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `app_webhook_deliveries_hook` ON `app_webhook_deliveries` (`app_webhook_id`,`business_id`);--> statement-breakpoint
CREATE INDEX `app_webhook_deliveries_created` ON `app_webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `app_webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`url` text NOT NULL,
	`events` text DEFAULT '[]' NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`paused_reason` text,
	`secret` text NOT NULL,
	`failure_emailed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `oauth_apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_webhooks_app_id_unique` ON `app_webhooks` (`app_id`);