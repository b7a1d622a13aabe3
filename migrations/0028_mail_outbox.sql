-- The outbox of a Test business (issue 32): every email it sends to a Client is kept here, as the MIME message the
-- SMTP path builds, instead of leaving the machine; the newest messages per Business are kept (src/modules/outbox).
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`kept_at` text NOT NULL,
	`from_name` text NOT NULL,
	`from_address` text NOT NULL,
	`to_addresses` text NOT NULL,
	`cc_addresses` text NOT NULL,
	`bcc_addresses` text NOT NULL,
	`subject` text NOT NULL,
	`attachments` text NOT NULL,
	`size` integer NOT NULL,
	`raw` blob NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE INDEX `mail_outbox_business` ON `mail_outbox` (`business_id`,`id`);
