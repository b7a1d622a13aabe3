PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_idempotency_keys` (
	`credential_kind` text DEFAULT 'api_key' NOT NULL,
	`api_key_id` integer NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`content_type` text NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`credential_kind`, `api_key_id`, `key`)
);
--> statement-breakpoint
INSERT INTO `__new_idempotency_keys`("credential_kind", "api_key_id", "key", "request_hash", "status", "content_type", "body", "created_at") SELECT 'api_key', "api_key_id", "key", "request_hash", "status", "content_type", "body", "created_at" FROM `idempotency_keys`;--> statement-breakpoint
DROP TABLE `idempotency_keys`;--> statement-breakpoint
ALTER TABLE `__new_idempotency_keys` RENAME TO `idempotency_keys`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);