-- A copy of one year's register as it stands (temp table billing_compare_register),
-- compared with the new register by insert_bill_changes.
CREATE OR REPLACE TEMP TABLE billing_compare_register AS
SELECT * FROM sewer_bills WHERE year = $year;
