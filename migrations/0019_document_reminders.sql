ALTER TABLE `documents` ADD `last_reminded` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `reminders_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A document reminded from the application before this column existed: its one reminder, by hand, recipients unknown.
UPDATE `documents` SET `last_reminded` = json_object('at', `last_reminded_at`, 'step_days', NULL, 'recipients', json('[]')), `reminders_sent` = 1 WHERE `last_reminded_at` IS NOT NULL;
