-- One district's bills of one year as the <row> elements of its XLSX sheet
-- (SpreadsheetML, rows from $first_row on, under the header), in the column
-- order of outfall.register_export.REGISTER_COLUMNS (A-O): parcel, owner and
-- mailing address (from parcels; street, city, state and ZIP on one line),
-- property class, the four unit counts, the four amounts and the total, how
-- the units were counted, the law.
--
-- Parcel, owner and address are inline text, XML-escaped and stripped of
-- characters XML cannot hold. Class, explanation and law are indexes into the
-- shared strings (the registered relation register_strings: kind, s, i, q;
-- q = the text could be read as a formula). Every text is a string cell, never
-- a formula; a text matching $formula_pattern (it begins with =, +, -, @, tab
-- or carriage return) also gets the quote-prefixed style, so that editing it
-- in Excel does not turn it into a formula. Units are numbers; money is exact
-- decimal text in the money style. The style ids are the workbook's ($plain,
-- $quoted, $wrap, $wrap_quoted, $money).
--
-- A row is as tall as its tallest wrapped cell ($line_points a line, at most
-- $max_lines lines): the class, explanation and law texts' lines come with the
-- shared strings (lines_n: in their own column, lines_o: in the Law column);
-- owner and address take a line per $owner_chars / $address_chars characters.
--
-- Each row is built by one concat(...) (a chain of || copies the growing row
-- once per operator).
WITH parcel AS (
    -- the mailing address on one line: street (mailing_address, else address), city, state and ZIP
    SELECT parcel_id, owner,
           nullif(concat_ws(', ', coalesce(mailing_address, address), city,
                            nullif(concat_ws(' ', state, zip), '')),
                  '') AS address
    FROM parcels
    QUALIFY row_number() OVER (PARTITION BY parcel_id ORDER BY loaded_at DESC, source_file, source_row) = 1
),
bills AS (
    SELECT
        row_number() OVER (ORDER BY b.parcel_id) + $first_row - 1 AS n,
        b.parcel_id, p.owner, p.address,
        b.units_bond, b.units_om, b.units_street_lateral, b.units_house_lateral,
        b.amount_bond, b.amount_om, b.amount_street_lateral, b.amount_house_lateral, b.total_usd,
        c.i AS class_i, c.q AS class_q, e.i AS explanation_i, e.q AS explanation_q, u.i AS rule_i,
        u.q AS rule_q,
        least($max_lines, greatest(1, coalesce(c.lines_n, 1), coalesce(e.lines_n, 1), coalesce(u.lines_o, 1),
                                   coalesce(CAST(ceil(length(p.owner) / $owner_chars) AS INTEGER), 1),
                                   coalesce(CAST(ceil(length(p.address) / $address_chars) AS INTEGER), 1)))
            AS lines
    FROM sewer_bills AS b
    LEFT JOIN parcel AS p ON p.parcel_id = b.parcel_id
    LEFT JOIN register_strings AS c ON c.kind = 'class' AND c.s = b.property_class
    LEFT JOIN register_strings AS e ON e.kind = 'text' AND e.s = b.explanation
    LEFT JOIN register_strings AS u ON u.kind = 'text' AND u.s = b.rule
    WHERE b.year = $year AND b.district = $district
),
texts AS (
    -- per inline text: is it formula-like, does it need xml:space, its escaped form
    SELECT
        *,
        CAST(n AS VARCHAR) AS r,
        regexp_matches(parcel_id, $formula_pattern) AS parcel_q,
        regexp_matches(owner, $formula_pattern) AS owner_q,
        regexp_matches(address, $formula_pattern) AS address_q,
        regexp_matches(parcel_id, '^\s|\s$') AS parcel_sp,
        regexp_matches(owner, '^\s|\s$') AS owner_sp,
        regexp_matches(address, '^\s|\s$') AS address_sp,
        replace(regexp_replace(replace(replace(replace(parcel_id, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                               '[\x00-\x08\x0B\x0C\x0E-\x1F]', '', 'g'), chr(13), '&#13;') AS parcel_xml,
        replace(regexp_replace(replace(replace(replace(owner, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                               '[\x00-\x08\x0B\x0C\x0E-\x1F]', '', 'g'), chr(13), '&#13;') AS owner_xml,
        replace(regexp_replace(replace(replace(replace(address, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                               '[\x00-\x08\x0B\x0C\x0E-\x1F]', '', 'g'), chr(13), '&#13;') AS address_xml
    FROM bills
),
xml AS (
    SELECT
        n,
        concat(
            '<row r="', r, '"',
            CASE WHEN lines > 1 THEN concat(' ht="', lines * $line_points, '" customHeight="1"') END, '>',
            CASE WHEN parcel_xml IS NOT NULL THEN concat(
                '<c r="A', r, '" s="', CASE WHEN parcel_q THEN $quoted ELSE $plain END,
                '" t="inlineStr"><is><t',
                CASE WHEN parcel_sp THEN ' xml:space="preserve"' END, '>', parcel_xml, '</t></is></c>') END,
            CASE WHEN owner_xml IS NOT NULL THEN concat(
                '<c r="B', r, '" s="', CASE WHEN owner_q THEN $wrap_quoted ELSE $wrap END,
                '" t="inlineStr"><is><t',
                CASE WHEN owner_sp THEN ' xml:space="preserve"' END, '>', owner_xml, '</t></is></c>') END,
            CASE WHEN address_xml IS NOT NULL THEN concat(
                '<c r="C', r, '" s="', CASE WHEN address_q THEN $wrap_quoted ELSE $wrap END,
                '" t="inlineStr"><is><t',
                CASE WHEN address_sp THEN ' xml:space="preserve"' END, '>', address_xml, '</t></is></c>') END,
            CASE WHEN class_i IS NOT NULL THEN concat(
                '<c r="D', r, '" s="', CASE WHEN class_q THEN $wrap_quoted ELSE $wrap END, '" t="s"><v>',
                class_i, '</v></c>') END,
            '<c r="E', r, '" s="', $plain, '"><v>', units_bond, '</v></c>',
            '<c r="F', r, '" s="', $plain, '"><v>', units_om, '</v></c>',
            '<c r="G', r, '" s="', $plain, '"><v>', units_street_lateral, '</v></c>',
            '<c r="H', r, '" s="', $plain, '"><v>', units_house_lateral, '</v></c>',
            '<c r="I', r, '" s="', $money, '"><v>', amount_bond, '</v></c>',
            '<c r="J', r, '" s="', $money, '"><v>', amount_om, '</v></c>',
            '<c r="K', r, '" s="', $money, '"><v>', amount_street_lateral, '</v></c>',
            '<c r="L', r, '" s="', $money, '"><v>', amount_house_lateral, '</v></c>',
            '<c r="M', r, '" s="', $money, '"><v>', total_usd, '</v></c>',
            CASE WHEN explanation_i IS NOT NULL THEN concat(
                '<c r="N', r, '" s="', CASE WHEN explanation_q THEN $wrap_quoted ELSE $wrap END,
                '" t="s"><v>', explanation_i, '</v></c>') END,
            CASE WHEN rule_i IS NOT NULL THEN concat(
                '<c r="O', r, '" s="', CASE WHEN rule_q THEN $wrap_quoted ELSE $wrap END, '" t="s"><v>',
                rule_i, '</v></c>') END,
            '</row>') AS row_xml
    FROM texts
)
SELECT count(*) AS rows, coalesce(string_agg(row_xml, '' ORDER BY n), '') AS sheet_rows
FROM xml;
