-- Documents in another currency (extensions §16): the ECB reference rates the service keeps, each document's rate and
-- its VAT in the Business's currency (fixed at issue), and running sums of those converted figures for the income and
-- VAT reports' `converted` block, kept by triggers as migrations/0010_report_sums.sql keeps the contract's own.
CREATE TABLE `fx_rates` (
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`rate` text NOT NULL,
	PRIMARY KEY(`day`, `currency`)
);
--> statement-breakpoint
ALTER TABLE `documents` ADD `exchange_rate` text;
--> statement-breakpoint
ALTER TABLE `documents` ADD `accounting_currency` text;
--> statement-breakpoint
ALTER TABLE `documents` ADD `vat_total_accounting` text;
--> statement-breakpoint
ALTER TABLE `documents` ADD `net_accounting_minor` numeric;
--> statement-breakpoint
ALTER TABLE `documents` ADD `vat_accounting_minor` numeric;
--> statement-breakpoint
ALTER TABLE `document_vat_bands` ADD `vat_accounting` text;
--> statement-breakpoint
ALTER TABLE `document_vat_bands` ADD `net_accounting_minor` numeric;
--> statement-breakpoint
ALTER TABLE `document_vat_bands` ADD `vat_accounting_minor` numeric;
--> statement-breakpoint
CREATE TABLE `report_fx_days` (
	`business_id` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`documents` integer DEFAULT 0 NOT NULL,
	`vat_documents` integer DEFAULT 0 NOT NULL,
	`net_hi` numeric DEFAULT '0' NOT NULL,
	`net_lo` numeric DEFAULT '0' NOT NULL,
	`vat_hi` numeric DEFAULT '0' NOT NULL,
	`vat_lo` numeric DEFAULT '0' NOT NULL,
	`large` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`business_id`, `day`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `report_fx_vat_days` (
	`business_id` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`type` text NOT NULL,
	`category` text NOT NULL,
	`rate` text NOT NULL,
	`bands` integer DEFAULT 0 NOT NULL,
	`net_hi` numeric DEFAULT '0' NOT NULL,
	`net_lo` numeric DEFAULT '0' NOT NULL,
	`vat_hi` numeric DEFAULT '0' NOT NULL,
	`vat_lo` numeric DEFAULT '0' NOT NULL,
	PRIMARY KEY(`business_id`, `day`, `currency`, `type`, `category`, `rate`)
);
--> statement-breakpoint
CREATE TRIGGER `report_fx_documents_insert` AFTER INSERT ON documents
BEGIN
  INSERT INTO report_fx_days (business_id, day, currency, documents, vat_documents, net_hi, net_lo, vat_hi, vat_lo, large)
    SELECT NEW.business_id, NEW.issue_date, NEW.accounting_currency, 1, (NEW.type IN ('invoice', 'credit_note')), ((CASE NEW.type WHEN 'invoice' THEN NEW.net_accounting_minor WHEN 'credit_note' THEN -NEW.net_accounting_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_accounting_minor WHEN NEW.total_minor <= 2000000000 AND NEW.net_accounting_minor <= 2000000000 THEN (2 * NEW.net_accounting_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.net_accounting_minor WHEN 'credit_note' THEN -NEW.net_accounting_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_accounting_minor WHEN NEW.total_minor <= 2000000000 AND NEW.net_accounting_minor <= 2000000000 THEN (2 * NEW.net_accounting_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) % 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_accounting_minor WHEN 'credit_note' THEN -NEW.vat_accounting_minor ELSE 0 END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_accounting_minor WHEN 'credit_note' THEN -NEW.vat_accounting_minor ELSE 0 END)) % 1000000000, (NEW.type = 'proforma' AND NEW.paid_minor > 0 AND NEW.paid_minor < NEW.total_minor AND (NEW.total_minor > 2000000000 OR NEW.net_accounting_minor > 2000000000))
    WHERE (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fx_documents_delete` BEFORE DELETE ON documents
BEGIN
  INSERT INTO report_fx_days (business_id, day, currency, documents, vat_documents, net_hi, net_lo, vat_hi, vat_lo, large)
    SELECT OLD.business_id, OLD.issue_date, OLD.accounting_currency, -1, -(OLD.type IN ('invoice', 'credit_note')), -((CASE OLD.type WHEN 'invoice' THEN OLD.net_accounting_minor WHEN 'credit_note' THEN -OLD.net_accounting_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_accounting_minor WHEN OLD.total_minor <= 2000000000 AND OLD.net_accounting_minor <= 2000000000 THEN (2 * OLD.net_accounting_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.net_accounting_minor WHEN 'credit_note' THEN -OLD.net_accounting_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_accounting_minor WHEN OLD.total_minor <= 2000000000 AND OLD.net_accounting_minor <= 2000000000 THEN (2 * OLD.net_accounting_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) % 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_accounting_minor WHEN 'credit_note' THEN -OLD.vat_accounting_minor ELSE 0 END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_accounting_minor WHEN 'credit_note' THEN -OLD.vat_accounting_minor ELSE 0 END)) % 1000000000, -(OLD.type = 'proforma' AND OLD.paid_minor > 0 AND OLD.paid_minor < OLD.total_minor AND (OLD.total_minor > 2000000000 OR OLD.net_accounting_minor > 2000000000))
    WHERE (OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT OLD.business_id, OLD.issue_date, OLD.accounting_currency, OLD.type, b.category, b.rate, -1, -(b.net_accounting_minor) / 1000000000, -(b.net_accounting_minor) % 1000000000, -(b.vat_accounting_minor) / 1000000000, -(b.vat_accounting_minor) % 1000000000
    FROM document_vat_bands b WHERE b.document_id = OLD.id AND b.vat_accounting_minor IS NOT NULL AND (OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fx_documents_update_days` AFTER UPDATE ON documents
  WHEN ((OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL))) OR (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))) AND ((OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL))) IS NOT (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL))) OR OLD.business_id IS NOT NEW.business_id OR OLD.issue_date IS NOT NEW.issue_date OR OLD.accounting_currency IS NOT NEW.accounting_currency OR (CASE OLD.type WHEN 'invoice' THEN OLD.net_accounting_minor WHEN 'credit_note' THEN -OLD.net_accounting_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_accounting_minor WHEN OLD.total_minor <= 2000000000 AND OLD.net_accounting_minor <= 2000000000 THEN (2 * OLD.net_accounting_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END) IS NOT (CASE NEW.type WHEN 'invoice' THEN NEW.net_accounting_minor WHEN 'credit_note' THEN -NEW.net_accounting_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_accounting_minor WHEN NEW.total_minor <= 2000000000 AND NEW.net_accounting_minor <= 2000000000 THEN (2 * NEW.net_accounting_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END) OR (CASE OLD.type WHEN 'invoice' THEN OLD.vat_accounting_minor WHEN 'credit_note' THEN -OLD.vat_accounting_minor ELSE 0 END) IS NOT (CASE NEW.type WHEN 'invoice' THEN NEW.vat_accounting_minor WHEN 'credit_note' THEN -NEW.vat_accounting_minor ELSE 0 END) OR (OLD.type = 'proforma' AND OLD.paid_minor > 0 AND OLD.paid_minor < OLD.total_minor AND (OLD.total_minor > 2000000000 OR OLD.net_accounting_minor > 2000000000)) IS NOT (NEW.type = 'proforma' AND NEW.paid_minor > 0 AND NEW.paid_minor < NEW.total_minor AND (NEW.total_minor > 2000000000 OR NEW.net_accounting_minor > 2000000000)) OR (OLD.type IN ('invoice', 'credit_note')) IS NOT (NEW.type IN ('invoice', 'credit_note')))
BEGIN
  INSERT INTO report_fx_days (business_id, day, currency, documents, vat_documents, net_hi, net_lo, vat_hi, vat_lo, large)
    SELECT OLD.business_id, OLD.issue_date, OLD.accounting_currency, -1, -(OLD.type IN ('invoice', 'credit_note')), -((CASE OLD.type WHEN 'invoice' THEN OLD.net_accounting_minor WHEN 'credit_note' THEN -OLD.net_accounting_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_accounting_minor WHEN OLD.total_minor <= 2000000000 AND OLD.net_accounting_minor <= 2000000000 THEN (2 * OLD.net_accounting_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.net_accounting_minor WHEN 'credit_note' THEN -OLD.net_accounting_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_accounting_minor WHEN OLD.total_minor <= 2000000000 AND OLD.net_accounting_minor <= 2000000000 THEN (2 * OLD.net_accounting_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) % 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_accounting_minor WHEN 'credit_note' THEN -OLD.vat_accounting_minor ELSE 0 END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_accounting_minor WHEN 'credit_note' THEN -OLD.vat_accounting_minor ELSE 0 END)) % 1000000000, -(OLD.type = 'proforma' AND OLD.paid_minor > 0 AND OLD.paid_minor < OLD.total_minor AND (OLD.total_minor > 2000000000 OR OLD.net_accounting_minor > 2000000000))
    WHERE (OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
  INSERT INTO report_fx_days (business_id, day, currency, documents, vat_documents, net_hi, net_lo, vat_hi, vat_lo, large)
    SELECT NEW.business_id, NEW.issue_date, NEW.accounting_currency, 1, (NEW.type IN ('invoice', 'credit_note')), ((CASE NEW.type WHEN 'invoice' THEN NEW.net_accounting_minor WHEN 'credit_note' THEN -NEW.net_accounting_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_accounting_minor WHEN NEW.total_minor <= 2000000000 AND NEW.net_accounting_minor <= 2000000000 THEN (2 * NEW.net_accounting_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.net_accounting_minor WHEN 'credit_note' THEN -NEW.net_accounting_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_accounting_minor WHEN NEW.total_minor <= 2000000000 AND NEW.net_accounting_minor <= 2000000000 THEN (2 * NEW.net_accounting_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) % 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_accounting_minor WHEN 'credit_note' THEN -NEW.vat_accounting_minor ELSE 0 END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_accounting_minor WHEN 'credit_note' THEN -NEW.vat_accounting_minor ELSE 0 END)) % 1000000000, (NEW.type = 'proforma' AND NEW.paid_minor > 0 AND NEW.paid_minor < NEW.total_minor AND (NEW.total_minor > 2000000000 OR NEW.net_accounting_minor > 2000000000))
    WHERE (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fx_documents_update_vat` AFTER UPDATE ON documents
  WHEN ((OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note')) OR (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND NEW.type IN ('invoice', 'credit_note'))) AND ((OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note')) IS NOT (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND NEW.type IN ('invoice', 'credit_note')) OR OLD.business_id IS NOT NEW.business_id OR OLD.issue_date IS NOT NEW.issue_date OR OLD.accounting_currency IS NOT NEW.accounting_currency OR OLD.type IS NOT NEW.type)
BEGIN
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT OLD.business_id, OLD.issue_date, OLD.accounting_currency, OLD.type, b.category, b.rate, -1, -(b.net_accounting_minor) / 1000000000, -(b.net_accounting_minor) % 1000000000, -(b.vat_accounting_minor) / 1000000000, -(b.vat_accounting_minor) % 1000000000
    FROM document_vat_bands b WHERE b.document_id = OLD.id AND b.vat_accounting_minor IS NOT NULL AND (OLD.accounting_currency IS NOT NULL AND OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT NEW.business_id, NEW.issue_date, NEW.accounting_currency, NEW.type, b.category, b.rate, 1, (b.net_accounting_minor) / 1000000000, (b.net_accounting_minor) % 1000000000, (b.vat_accounting_minor) / 1000000000, (b.vat_accounting_minor) % 1000000000
    FROM document_vat_bands b WHERE b.document_id = NEW.id AND b.vat_accounting_minor IS NOT NULL AND (NEW.accounting_currency IS NOT NULL AND NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND NEW.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fx_bands_insert` AFTER INSERT ON document_vat_bands
BEGIN
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.accounting_currency, d.type, NEW.category, NEW.rate, 1, (NEW.net_accounting_minor) / 1000000000, (NEW.net_accounting_minor) % 1000000000, (NEW.vat_accounting_minor) / 1000000000, (NEW.vat_accounting_minor) % 1000000000
    FROM documents d WHERE d.id = NEW.document_id AND NEW.vat_accounting_minor IS NOT NULL AND (d.accounting_currency IS NOT NULL AND d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fx_bands_delete` AFTER DELETE ON document_vat_bands
BEGIN
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.accounting_currency, d.type, OLD.category, OLD.rate, -1, -(OLD.net_accounting_minor) / 1000000000, -(OLD.net_accounting_minor) % 1000000000, -(OLD.vat_accounting_minor) / 1000000000, -(OLD.vat_accounting_minor) % 1000000000
    FROM documents d WHERE d.id = OLD.document_id AND OLD.vat_accounting_minor IS NOT NULL AND (d.accounting_currency IS NOT NULL AND d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fx_bands_update` AFTER UPDATE ON document_vat_bands
BEGIN
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.accounting_currency, d.type, OLD.category, OLD.rate, -1, -(OLD.net_accounting_minor) / 1000000000, -(OLD.net_accounting_minor) % 1000000000, -(OLD.vat_accounting_minor) / 1000000000, -(OLD.vat_accounting_minor) % 1000000000
    FROM documents d WHERE d.id = OLD.document_id AND OLD.vat_accounting_minor IS NOT NULL AND (d.accounting_currency IS NOT NULL AND d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
  INSERT INTO report_fx_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.accounting_currency, d.type, NEW.category, NEW.rate, 1, (NEW.net_accounting_minor) / 1000000000, (NEW.net_accounting_minor) % 1000000000, (NEW.vat_accounting_minor) / 1000000000, (NEW.vat_accounting_minor) % 1000000000
    FROM documents d WHERE d.id = NEW.document_id AND NEW.vat_accounting_minor IS NOT NULL AND (d.accounting_currency IS NOT NULL AND d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
