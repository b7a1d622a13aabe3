DROP INDEX `document_vat_bands_document`;--> statement-breakpoint
CREATE INDEX `document_vat_bands_document` ON `document_vat_bands` (`document_id`,`category`,`rate`,`net_minor`,`vat_minor`);--> statement-breakpoint
DROP INDEX `documents_client`;--> statement-breakpoint
DROP INDEX `documents_issue_date`;--> statement-breakpoint
CREATE INDEX `documents_open` ON `documents` (`business_id`,`status`,`due_date`,`currency`,`client_id`,`type`,`converted_into_id`,`total_minor`,`paid_minor`) WHERE status IN ('issued', 'partially_paid');--> statement-breakpoint
CREATE INDEX `documents_client` ON `documents` (`business_id`,`client_id`,`issue_date`,`status`,`type`,`currency`,`converted_into_id`,`total_minor`);--> statement-breakpoint
CREATE INDEX `documents_issue_date` ON `documents` (`business_id`,`issue_date`,`status`,`type`,`currency`,`converted_into_id`,`net_minor`,`vat_minor`,`total_minor`,`paid_minor`);--> statement-breakpoint
DROP INDEX `payments_document`;--> statement-breakpoint
CREATE INDEX `payments_document` ON `payments` (`document_id`,`status`,`payment_date`,`amount_minor`);