CREATE TABLE `connected_apps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`role` text NOT NULL,
	`connected_at` text NOT NULL,
	`last_used_at` text NOT NULL,
	`ended_at` text,
	`end_reason` text,
	FOREIGN KEY (`app_id`) REFERENCES `oauth_apps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `connected_apps_business` ON `connected_apps` (`business_id`,`id`);--> statement-breakpoint
CREATE INDEX `connected_apps_app` ON `connected_apps` (`app_id`,`business_id`);--> statement-breakpoint
CREATE INDEX `connected_apps_person` ON `connected_apps` (`person_id`,`business_id`);--> statement-breakpoint
CREATE TABLE `oauth_apps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`owner_person_id` integer,
	`client_secret_hash` text,
	`fetched_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_apps_client_id` ON `oauth_apps` (`client_id`);--> statement-breakpoint
CREATE INDEX `oauth_apps_owner` ON `oauth_apps` (`owner_person_id`);--> statement-breakpoint
CREATE TABLE `oauth_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code_hash` text NOT NULL,
	`app_id` integer NOT NULL,
	`business_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`role` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`code_challenge` text NOT NULL,
	`resources` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`connected_app_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`app_id`) REFERENCES `oauth_apps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_codes_hash` ON `oauth_codes` (`code_hash`);--> statement-breakpoint
CREATE INDEX `oauth_codes_created` ON `oauth_codes` (`created_at`);--> statement-breakpoint
CREATE TABLE `oauth_redirect_uris` (
	`app_id` integer NOT NULL,
	`uri` text NOT NULL,
	PRIMARY KEY(`app_id`, `uri`),
	FOREIGN KEY (`app_id`) REFERENCES `oauth_apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `oauth_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connected_app_id` integer NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`resources` text NOT NULL,
	`expires_at` text,
	`created_at` text NOT NULL,
	`ended_at` text,
	`end_reason` text,
	FOREIGN KEY (`connected_app_id`) REFERENCES `connected_apps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_tokens_hash` ON `oauth_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `oauth_tokens_connected_app` ON `oauth_tokens` (`connected_app_id`);