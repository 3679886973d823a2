-- The units, amounts, explanation and rule of each district and combination of
-- billing inputs at the year's rates (temp table billing_priced), from the frame
-- billing_priced_frame computed by outfall.law.billing (amounts as exact decimal text).
CREATE OR REPLACE TEMP TABLE billing_priced AS
SELECT
    CAST(district AS VARCHAR) AS district,
    CAST(combo_id AS BIGINT) AS combo_id,
    CAST(units_bond AS INTEGER) AS units_bond,
    CAST(units_om AS INTEGER) AS units_om,
    CAST(units_street_lateral AS INTEGER) AS units_street_lateral,
    CAST(units_house_lateral AS INTEGER) AS units_house_lateral,
    CAST(amount_bond AS DECIMAL(12,2)) AS amount_bond,
    CAST(amount_om AS DECIMAL(12,2)) AS amount_om,
    CAST(amount_street_lateral AS DECIMAL(12,2)) AS amount_street_lateral,
    CAST(amount_house_lateral AS DECIMAL(12,2)) AS amount_house_lateral,
    CAST(explanation AS VARCHAR) AS explanation,
    CAST(rule AS VARCHAR) AS rule
FROM billing_priced_frame;
