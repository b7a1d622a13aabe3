ALTER TABLE `businesses` ADD `electronic_address_scheme` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `electronic_address` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `contact_name` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `contact_phone` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `contact_email` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `tax_registration_id` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `einvoice_format` text DEFAULT 'ubl' NOT NULL;--> statement-breakpoint
ALTER TABLE `clients` ADD `electronic_address_scheme` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `electronic_address` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `buyer_reference` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `buyer_reference` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `order_reference` text;