-- One district's bills of one year as the <row> elements of its XLSX sheet
-- (SpreadsheetML; rows from 2, under the header). Columns in the order of
-- outfall.billing_export.SHEET_COLUMNS (A-M). parcel_id is inline text,
-- XML-escaped and stripped of characters XML cannot hold; class, explanation
-- and rule are indexes into the shared strings (the registered relation
-- register_strings: s, i); money is exact decimal text in the money style
-- ($money_style).
WITH bills AS (
    SELECT
        CAST(row_number() OVER (ORDER BY b.parcel_id) + 1 AS VARCHAR) AS r,
        regexp_replace(replace(replace(replace(coalesce(b.parcel_id, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                       '[\x00-\x08\x0B\x0C\x0E-\x1F]', '', 'g') AS parcel_id,
        CAST(c.i AS VARCHAR) AS property_class,
        b.units_bond, b.units_om, b.units_street_lateral, b.units_house_lateral,
        b.amount_bond, b.amount_om, b.amount_street_lateral, b.amount_house_lateral, b.total_usd,
        CAST(e.i AS VARCHAR) AS explanation,
        CAST(u.i AS VARCHAR) AS rule
    FROM sewer_bills AS b
    LEFT JOIN register_strings AS c ON c.s = b.property_class
    LEFT JOIN register_strings AS e ON e.s = b.explanation
    LEFT JOIN register_strings AS u ON u.s = b.rule
    WHERE b.year = $year AND b.district = $district
),
xml AS (
    SELECT
        CAST(r AS INTEGER) AS n,
        '<row r="' || r || '">'
        || '<c r="A' || r || '" t="inlineStr"><is><t>' || parcel_id || '</t></is></c>'
        || coalesce('<c r="B' || r || '" t="s"><v>' || property_class || '</v></c>', '')
        || '<c r="C' || r || '"><v>' || CAST(units_bond AS VARCHAR) || '</v></c>'
        || '<c r="D' || r || '"><v>' || CAST(units_om AS VARCHAR) || '</v></c>'
        || '<c r="E' || r || '"><v>' || CAST(units_street_lateral AS VARCHAR) || '</v></c>'
        || '<c r="F' || r || '"><v>' || CAST(units_house_lateral AS VARCHAR) || '</v></c>'
        || '<c r="G' || r || '" s="' || $money_style || '"><v>' || CAST(amount_bond AS VARCHAR) || '</v></c>'
        || '<c r="H' || r || '" s="' || $money_style || '"><v>' || CAST(amount_om AS VARCHAR) || '</v></c>'
        || '<c r="I' || r || '" s="' || $money_style || '"><v>' || CAST(amount_street_lateral AS VARCHAR) || '</v></c>'
        || '<c r="J' || r || '" s="' || $money_style || '"><v>' || CAST(amount_house_lateral AS VARCHAR) || '</v></c>'
        || '<c r="K' || r || '" s="' || $money_style || '"><v>' || CAST(total_usd AS VARCHAR) || '</v></c>'
        || coalesce('<c r="L' || r || '" t="s"><v>' || explanation || '</v></c>', '')
        || coalesce('<c r="M' || r || '" t="s"><v>' || rule || '</v></c>', '')
        || '</row>' AS row_xml
    FROM bills
)
SELECT count(*) AS rows, coalesce(string_agg(row_xml, '' ORDER BY n), '') AS sheet_rows
FROM xml;
