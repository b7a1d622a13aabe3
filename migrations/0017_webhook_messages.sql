CREATE TABLE `webhook_messages` (
	`message_id` text PRIMARY KEY NOT NULL,
	`business_id` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_messages_created` ON `webhook_messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_message` ON `webhook_deliveries` (`message_id`);--> statement-breakpoint
-- Each message's body once, from the deliveries that each held a copy of it (the earliest delivery's time).
INSERT INTO `webhook_messages` (`message_id`, `business_id`, `body`, `created_at`)
SELECT `message_id`, `business_id`, `body`, MIN(`created_at`) FROM `webhook_deliveries` GROUP BY `message_id`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` DROP COLUMN `body`;