CREATE TABLE `products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`name` text NOT NULL,
	`code` text NOT NULL,
	`description` text,
	`type` text NOT NULL,
	`price` text NOT NULL,
	`currency` text NOT NULL,
	`vat_rate` text DEFAULT '0.00' NOT NULL,
	`vat_included` integer DEFAULT false NOT NULL,
	`unit` text DEFAULT 'pcs' NOT NULL,
	`track_inventory` integer DEFAULT false NOT NULL,
	`stock_quantity` integer,
	`minimum_stock` integer,
	`category` text,
	`sku` text,
	`barcode` text,
	`is_active` integer DEFAULT true NOT NULL,
	`is_archived` integer DEFAULT false NOT NULL,
	`notes` text,
	`search_text` text DEFAULT '' NOT NULL,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `products_business` ON `products` (`business_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_code` ON `products` (`business_id`,`code`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `products_deleted` ON `products` (`deleted_at`);