ALTER TABLE `documents` ADD `seller_snapshot` text;--> statement-breakpoint
-- Documents issued before this migration had no seller snapshot: they take the Business as it stands at upgrade
-- (its earlier values are not known). The accounts shown follow the rule the service applies at issue
-- (documents.present.ts accountsShown): those the document names, else the Business's accounts in its currency
-- (or with no currency), else all of them. A Non-VAT Payer's VAT number is kept as none.
UPDATE `documents` SET `seller_snapshot` = (
  SELECT json_object(
    'name', b.`name`,
    'legal_name', b.`legal_name`,
    'vat_number', CASE WHEN b.`is_vat_payer` THEN b.`vat_number` ELSE NULL END,
    'company_id', b.`company_id`,
    'email', b.`email`,
    'address', b.`address`,
    'city', b.`city`,
    'postal_code', b.`postal_code`,
    'country', b.`country`,
    'bank_accounts', json(coalesce((
      SELECT json_group_array(json_object('id', a.`id`, 'name', a.`name`, 'iban', a.`iban`, 'bic', a.`bic`, 'currency', a.`currency`))
      FROM (
        SELECT * FROM `bank_accounts` a WHERE a.`business_id` = `documents`.`business_id` AND (
          CASE
            WHEN json_array_length(`documents`.`bank_account_ids`) > 0 THEN a.`id` IN (SELECT value FROM json_each(`documents`.`bank_account_ids`))
            WHEN EXISTS (SELECT 1 FROM `bank_accounts` x WHERE x.`business_id` = `documents`.`business_id` AND (x.`currency` IS NULL OR x.`currency` = `documents`.`currency`))
              THEN (a.`currency` IS NULL OR a.`currency` = `documents`.`currency`)
            ELSE 1
          END)
        ORDER BY a.`id`
      ) a
    ), '[]'))
  )
  FROM `businesses` b WHERE b.`id` = `documents`.`business_id`
)
WHERE `status` <> 'draft';
