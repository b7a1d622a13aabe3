ALTER TABLE `documents` ADD `public_token` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `viewed_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `documents_public_token` ON `documents` (`public_token`);