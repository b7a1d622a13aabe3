CREATE TABLE `report_days` (
	`business_id` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`documents` integer DEFAULT 0 NOT NULL,
	`vat_documents` integer DEFAULT 0 NOT NULL,
	`income_hi` numeric DEFAULT '0' NOT NULL,
	`income_lo` numeric DEFAULT '0' NOT NULL,
	`vat_hi` numeric DEFAULT '0' NOT NULL,
	`vat_lo` numeric DEFAULT '0' NOT NULL,
	`large` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`business_id`, `day`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `report_open_clients` (
	`business_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`currency` text NOT NULL,
	`documents` integer DEFAULT 0 NOT NULL,
	`due_hi` numeric DEFAULT '0' NOT NULL,
	`due_lo` numeric DEFAULT '0' NOT NULL,
	PRIMARY KEY(`business_id`, `client_id`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `report_vat_days` (
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
ALTER TABLE `documents` ADD `last_mailed` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `last_reminded_at` text;--> statement-breakpoint
-- Report sums kept by triggers (src/db/schema/reports.ts says why and how), then filled from the documents as they stand.
CREATE TRIGGER `report_documents_insert` AFTER INSERT ON documents
BEGIN
  INSERT INTO report_days (business_id, day, currency, documents, vat_documents, income_hi, income_lo, vat_hi, vat_lo, large)
    SELECT NEW.business_id, NEW.issue_date, NEW.currency, 1, (NEW.type IN ('invoice', 'credit_note')), ((CASE NEW.type WHEN 'invoice' THEN NEW.net_minor WHEN 'credit_note' THEN -NEW.net_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_minor WHEN NEW.total_minor <= 2000000000 THEN (2 * NEW.net_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.net_minor WHEN 'credit_note' THEN -NEW.net_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_minor WHEN NEW.total_minor <= 2000000000 THEN (2 * NEW.net_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) % 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_minor WHEN 'credit_note' THEN -NEW.vat_minor ELSE 0 END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_minor WHEN 'credit_note' THEN -NEW.vat_minor ELSE 0 END)) % 1000000000, (NEW.type = 'proforma' AND NEW.paid_minor > 0 AND NEW.paid_minor < NEW.total_minor AND NEW.total_minor > 2000000000)
    WHERE (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      income_hi = income_hi + excluded.income_hi, income_lo = income_lo + excluded.income_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
  INSERT INTO report_open_clients (business_id, client_id, currency, documents, due_hi, due_lo)
    SELECT NEW.business_id, NEW.client_id, NEW.currency, 1, ((NEW.total_minor - NEW.paid_minor)) / 1000000000, ((NEW.total_minor - NEW.paid_minor)) % 1000000000
    WHERE (NEW.status IN ('issued', 'partially_paid') AND NEW.due_date IS NOT NULL AND (NEW.type = 'invoice' OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))
    ON CONFLICT (business_id, client_id, currency) DO UPDATE SET documents = documents + excluded.documents, due_hi = due_hi + excluded.due_hi, due_lo = due_lo + excluded.due_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_documents_delete` BEFORE DELETE ON documents
BEGIN
  INSERT INTO report_days (business_id, day, currency, documents, vat_documents, income_hi, income_lo, vat_hi, vat_lo, large)
    SELECT OLD.business_id, OLD.issue_date, OLD.currency, -1, -(OLD.type IN ('invoice', 'credit_note')), -((CASE OLD.type WHEN 'invoice' THEN OLD.net_minor WHEN 'credit_note' THEN -OLD.net_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_minor WHEN OLD.total_minor <= 2000000000 THEN (2 * OLD.net_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.net_minor WHEN 'credit_note' THEN -OLD.net_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_minor WHEN OLD.total_minor <= 2000000000 THEN (2 * OLD.net_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) % 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_minor WHEN 'credit_note' THEN -OLD.vat_minor ELSE 0 END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_minor WHEN 'credit_note' THEN -OLD.vat_minor ELSE 0 END)) % 1000000000, -(OLD.type = 'proforma' AND OLD.paid_minor > 0 AND OLD.paid_minor < OLD.total_minor AND OLD.total_minor > 2000000000)
    WHERE (OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      income_hi = income_hi + excluded.income_hi, income_lo = income_lo + excluded.income_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
  INSERT INTO report_open_clients (business_id, client_id, currency, documents, due_hi, due_lo)
    SELECT OLD.business_id, OLD.client_id, OLD.currency, -1, -((OLD.total_minor - OLD.paid_minor)) / 1000000000, -((OLD.total_minor - OLD.paid_minor)) % 1000000000
    WHERE (OLD.status IN ('issued', 'partially_paid') AND OLD.due_date IS NOT NULL AND (OLD.type = 'invoice' OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL)))
    ON CONFLICT (business_id, client_id, currency) DO UPDATE SET documents = documents + excluded.documents, due_hi = due_hi + excluded.due_hi, due_lo = due_lo + excluded.due_lo;
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT OLD.business_id, OLD.issue_date, OLD.currency, OLD.type, b.category, b.rate, -1, -(b.net_minor) / 1000000000, -(b.net_minor) % 1000000000, -(b.vat_minor) / 1000000000, -(b.vat_minor) % 1000000000
    FROM document_vat_bands b WHERE b.document_id = OLD.id AND (OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_documents_update_days` AFTER UPDATE ON documents
  WHEN ((OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL))) OR (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))) AND ((OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL))) IS NOT (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL))) OR OLD.business_id IS NOT NEW.business_id OR OLD.issue_date IS NOT NEW.issue_date OR OLD.currency IS NOT NEW.currency OR (CASE OLD.type WHEN 'invoice' THEN OLD.net_minor WHEN 'credit_note' THEN -OLD.net_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_minor WHEN OLD.total_minor <= 2000000000 THEN (2 * OLD.net_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END) IS NOT (CASE NEW.type WHEN 'invoice' THEN NEW.net_minor WHEN 'credit_note' THEN -NEW.net_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_minor WHEN NEW.total_minor <= 2000000000 THEN (2 * NEW.net_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END) OR (CASE OLD.type WHEN 'invoice' THEN OLD.vat_minor WHEN 'credit_note' THEN -OLD.vat_minor ELSE 0 END) IS NOT (CASE NEW.type WHEN 'invoice' THEN NEW.vat_minor WHEN 'credit_note' THEN -NEW.vat_minor ELSE 0 END) OR (OLD.type = 'proforma' AND OLD.paid_minor > 0 AND OLD.paid_minor < OLD.total_minor AND OLD.total_minor > 2000000000) IS NOT (NEW.type = 'proforma' AND NEW.paid_minor > 0 AND NEW.paid_minor < NEW.total_minor AND NEW.total_minor > 2000000000) OR (OLD.type IN ('invoice', 'credit_note')) IS NOT (NEW.type IN ('invoice', 'credit_note')))
BEGIN
  INSERT INTO report_days (business_id, day, currency, documents, vat_documents, income_hi, income_lo, vat_hi, vat_lo, large)
    SELECT OLD.business_id, OLD.issue_date, OLD.currency, -1, -(OLD.type IN ('invoice', 'credit_note')), -((CASE OLD.type WHEN 'invoice' THEN OLD.net_minor WHEN 'credit_note' THEN -OLD.net_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_minor WHEN OLD.total_minor <= 2000000000 THEN (2 * OLD.net_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.net_minor WHEN 'credit_note' THEN -OLD.net_minor ELSE (CASE WHEN OLD.paid_minor <= 0 THEN 0 WHEN OLD.paid_minor >= OLD.total_minor THEN OLD.net_minor WHEN OLD.total_minor <= 2000000000 THEN (2 * OLD.net_minor * OLD.paid_minor + OLD.total_minor) / (2 * OLD.total_minor) ELSE 0 END) END)) % 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_minor WHEN 'credit_note' THEN -OLD.vat_minor ELSE 0 END)) / 1000000000, -((CASE OLD.type WHEN 'invoice' THEN OLD.vat_minor WHEN 'credit_note' THEN -OLD.vat_minor ELSE 0 END)) % 1000000000, -(OLD.type = 'proforma' AND OLD.paid_minor > 0 AND OLD.paid_minor < OLD.total_minor AND OLD.total_minor > 2000000000)
    WHERE (OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND (OLD.type IN ('invoice', 'credit_note') OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      income_hi = income_hi + excluded.income_hi, income_lo = income_lo + excluded.income_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
  INSERT INTO report_days (business_id, day, currency, documents, vat_documents, income_hi, income_lo, vat_hi, vat_lo, large)
    SELECT NEW.business_id, NEW.issue_date, NEW.currency, 1, (NEW.type IN ('invoice', 'credit_note')), ((CASE NEW.type WHEN 'invoice' THEN NEW.net_minor WHEN 'credit_note' THEN -NEW.net_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_minor WHEN NEW.total_minor <= 2000000000 THEN (2 * NEW.net_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.net_minor WHEN 'credit_note' THEN -NEW.net_minor ELSE (CASE WHEN NEW.paid_minor <= 0 THEN 0 WHEN NEW.paid_minor >= NEW.total_minor THEN NEW.net_minor WHEN NEW.total_minor <= 2000000000 THEN (2 * NEW.net_minor * NEW.paid_minor + NEW.total_minor) / (2 * NEW.total_minor) ELSE 0 END) END)) % 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_minor WHEN 'credit_note' THEN -NEW.vat_minor ELSE 0 END)) / 1000000000, ((CASE NEW.type WHEN 'invoice' THEN NEW.vat_minor WHEN 'credit_note' THEN -NEW.vat_minor ELSE 0 END)) % 1000000000, (NEW.type = 'proforma' AND NEW.paid_minor > 0 AND NEW.paid_minor < NEW.total_minor AND NEW.total_minor > 2000000000)
    WHERE (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND (NEW.type IN ('invoice', 'credit_note') OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))
    ON CONFLICT (business_id, day, currency) DO UPDATE SET documents = documents + excluded.documents, vat_documents = vat_documents + excluded.vat_documents,
      income_hi = income_hi + excluded.income_hi, income_lo = income_lo + excluded.income_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo, large = large + excluded.large;
END;
--> statement-breakpoint
CREATE TRIGGER `report_documents_update_open` AFTER UPDATE ON documents
  WHEN ((OLD.status IN ('issued', 'partially_paid') AND OLD.due_date IS NOT NULL AND (OLD.type = 'invoice' OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL))) OR (NEW.status IN ('issued', 'partially_paid') AND NEW.due_date IS NOT NULL AND (NEW.type = 'invoice' OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))) AND ((OLD.status IN ('issued', 'partially_paid') AND OLD.due_date IS NOT NULL AND (OLD.type = 'invoice' OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL))) IS NOT (NEW.status IN ('issued', 'partially_paid') AND NEW.due_date IS NOT NULL AND (NEW.type = 'invoice' OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL))) OR OLD.business_id IS NOT NEW.business_id OR OLD.client_id IS NOT NEW.client_id OR OLD.currency IS NOT NEW.currency OR (OLD.total_minor - OLD.paid_minor) IS NOT (NEW.total_minor - NEW.paid_minor))
BEGIN
  INSERT INTO report_open_clients (business_id, client_id, currency, documents, due_hi, due_lo)
    SELECT OLD.business_id, OLD.client_id, OLD.currency, -1, -((OLD.total_minor - OLD.paid_minor)) / 1000000000, -((OLD.total_minor - OLD.paid_minor)) % 1000000000
    WHERE (OLD.status IN ('issued', 'partially_paid') AND OLD.due_date IS NOT NULL AND (OLD.type = 'invoice' OR (OLD.type = 'proforma' AND OLD.converted_into_id IS NULL)))
    ON CONFLICT (business_id, client_id, currency) DO UPDATE SET documents = documents + excluded.documents, due_hi = due_hi + excluded.due_hi, due_lo = due_lo + excluded.due_lo;
  INSERT INTO report_open_clients (business_id, client_id, currency, documents, due_hi, due_lo)
    SELECT NEW.business_id, NEW.client_id, NEW.currency, 1, ((NEW.total_minor - NEW.paid_minor)) / 1000000000, ((NEW.total_minor - NEW.paid_minor)) % 1000000000
    WHERE (NEW.status IN ('issued', 'partially_paid') AND NEW.due_date IS NOT NULL AND (NEW.type = 'invoice' OR (NEW.type = 'proforma' AND NEW.converted_into_id IS NULL)))
    ON CONFLICT (business_id, client_id, currency) DO UPDATE SET documents = documents + excluded.documents, due_hi = due_hi + excluded.due_hi, due_lo = due_lo + excluded.due_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_documents_update_vat` AFTER UPDATE ON documents
  WHEN ((OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note')) OR (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND NEW.type IN ('invoice', 'credit_note'))) AND ((OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note')) IS NOT (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND NEW.type IN ('invoice', 'credit_note')) OR OLD.business_id IS NOT NEW.business_id OR OLD.issue_date IS NOT NEW.issue_date OR OLD.currency IS NOT NEW.currency OR OLD.type IS NOT NEW.type)
BEGIN
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT OLD.business_id, OLD.issue_date, OLD.currency, OLD.type, b.category, b.rate, -1, -(b.net_minor) / 1000000000, -(b.net_minor) % 1000000000, -(b.vat_minor) / 1000000000, -(b.vat_minor) % 1000000000
    FROM document_vat_bands b WHERE b.document_id = OLD.id AND (OLD.issue_date IS NOT NULL AND OLD.status IN ('issued', 'partially_paid', 'paid') AND OLD.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT NEW.business_id, NEW.issue_date, NEW.currency, NEW.type, b.category, b.rate, 1, (b.net_minor) / 1000000000, (b.net_minor) % 1000000000, (b.vat_minor) / 1000000000, (b.vat_minor) % 1000000000
    FROM document_vat_bands b WHERE b.document_id = NEW.id AND (NEW.issue_date IS NOT NULL AND NEW.status IN ('issued', 'partially_paid', 'paid') AND NEW.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_bands_insert` AFTER INSERT ON document_vat_bands
BEGIN
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.currency, d.type, NEW.category, NEW.rate, 1, (NEW.net_minor) / 1000000000, (NEW.net_minor) % 1000000000, (NEW.vat_minor) / 1000000000, (NEW.vat_minor) % 1000000000
    FROM documents d WHERE d.id = NEW.document_id AND (d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_bands_delete` AFTER DELETE ON document_vat_bands
BEGIN
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.currency, d.type, OLD.category, OLD.rate, -1, -(OLD.net_minor) / 1000000000, -(OLD.net_minor) % 1000000000, -(OLD.vat_minor) / 1000000000, -(OLD.vat_minor) % 1000000000
    FROM documents d WHERE d.id = OLD.document_id AND (d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
CREATE TRIGGER `report_bands_update` AFTER UPDATE ON document_vat_bands
BEGIN
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.currency, d.type, OLD.category, OLD.rate, -1, -(OLD.net_minor) / 1000000000, -(OLD.net_minor) % 1000000000, -(OLD.vat_minor) / 1000000000, -(OLD.vat_minor) % 1000000000
    FROM documents d WHERE d.id = OLD.document_id AND (d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
  INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
    SELECT d.business_id, d.issue_date, d.currency, d.type, NEW.category, NEW.rate, 1, (NEW.net_minor) / 1000000000, (NEW.net_minor) % 1000000000, (NEW.vat_minor) / 1000000000, (NEW.vat_minor) % 1000000000
    FROM documents d WHERE d.id = NEW.document_id AND (d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note'))
    ON CONFLICT (business_id, day, currency, type, category, rate) DO UPDATE SET bands = bands + excluded.bands,
      net_hi = net_hi + excluded.net_hi, net_lo = net_lo + excluded.net_lo, vat_hi = vat_hi + excluded.vat_hi, vat_lo = vat_lo + excluded.vat_lo;
END;
--> statement-breakpoint
INSERT INTO report_days (business_id, day, currency, documents, vat_documents, income_hi, income_lo, vat_hi, vat_lo, large)
  SELECT d.business_id, d.issue_date, d.currency, count(*), sum((d.type IN ('invoice', 'credit_note'))), sum((CASE d.type WHEN 'invoice' THEN d.net_minor WHEN 'credit_note' THEN -d.net_minor ELSE (CASE WHEN d.paid_minor <= 0 THEN 0 WHEN d.paid_minor >= d.total_minor THEN d.net_minor WHEN d.total_minor <= 2000000000 THEN (2 * d.net_minor * d.paid_minor + d.total_minor) / (2 * d.total_minor) ELSE 0 END) END) / 1000000000), sum((CASE d.type WHEN 'invoice' THEN d.net_minor WHEN 'credit_note' THEN -d.net_minor ELSE (CASE WHEN d.paid_minor <= 0 THEN 0 WHEN d.paid_minor >= d.total_minor THEN d.net_minor WHEN d.total_minor <= 2000000000 THEN (2 * d.net_minor * d.paid_minor + d.total_minor) / (2 * d.total_minor) ELSE 0 END) END) % 1000000000), sum((CASE d.type WHEN 'invoice' THEN d.vat_minor WHEN 'credit_note' THEN -d.vat_minor ELSE 0 END) / 1000000000), sum((CASE d.type WHEN 'invoice' THEN d.vat_minor WHEN 'credit_note' THEN -d.vat_minor ELSE 0 END) % 1000000000), sum((d.type = 'proforma' AND d.paid_minor > 0 AND d.paid_minor < d.total_minor AND d.total_minor > 2000000000))
  FROM documents d WHERE (d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND (d.type IN ('invoice', 'credit_note') OR (d.type = 'proforma' AND d.converted_into_id IS NULL))) GROUP BY d.business_id, d.issue_date, d.currency;
--> statement-breakpoint
INSERT INTO report_open_clients (business_id, client_id, currency, documents, due_hi, due_lo)
  SELECT d.business_id, d.client_id, d.currency, count(*), sum((d.total_minor - d.paid_minor) / 1000000000), sum((d.total_minor - d.paid_minor) % 1000000000)
  FROM documents d WHERE (d.status IN ('issued', 'partially_paid') AND d.due_date IS NOT NULL AND (d.type = 'invoice' OR (d.type = 'proforma' AND d.converted_into_id IS NULL))) GROUP BY d.business_id, d.client_id, d.currency;
--> statement-breakpoint
INSERT INTO report_vat_days (business_id, day, currency, type, category, rate, bands, net_hi, net_lo, vat_hi, vat_lo)
  SELECT d.business_id, d.issue_date, d.currency, d.type, b.category, b.rate, count(*), sum(b.net_minor / 1000000000), sum(b.net_minor % 1000000000), sum(b.vat_minor / 1000000000), sum(b.vat_minor % 1000000000)
  FROM documents d JOIN document_vat_bands b ON b.document_id = d.id WHERE (d.issue_date IS NOT NULL AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note')) GROUP BY d.business_id, d.issue_date, d.currency, d.type, b.category, b.rate;
--> statement-breakpoint
UPDATE documents SET last_mailed = last_sent WHERE last_sent IS NOT NULL;
