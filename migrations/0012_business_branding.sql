CREATE TABLE `business_logos` (
	`business_id` integer PRIMARY KEY NOT NULL,
	`bytes` blob NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `businesses` ADD `brand_color` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `logo_type` text;