-- Every letter written this run, from the tables of the assets that wrote them, with its state. An order's
-- recipient_id is its grease trap (grease_order) or site (stop_work_order), as notices_mailed names it.
WITH recorded AS (SELECT document_id FROM documents_issued)
SELECT letter, letter_kind, recipient_id, dated, ready, reason, document_id, recipient_name, area, mailed,
       document_id IN (SELECT document_id FROM recorded) AS recorded
FROM (
    SELECT letter, kind || '_notice' AS letter_kind, recipient_id, issued_on AS dated,
           coalesce(ready_to_send, FALSE) AND status = 'mailed' AS ready,
           CASE WHEN status = 'draft'
                THEN concat_ws('; ', 'a draft, not dated: record the day it is mailed in the '
                                     || 'notices mailed file and run again', not_ready_reason)
                ELSE not_ready_reason END AS reason, notice_id AS document_id, recipient_name, kind AS area,
           status = 'mailed' AS mailed
    FROM notices
    UNION ALL
    SELECT 'letters/sewer/' || letter_file, 'grease_order', trap_id, issued_on,
           coalesce(ready_to_mail, FALSE) AND status = 'mailed', not_ready_reason, order_id, recipient_name,
           'sewer', status = 'mailed'
    FROM grease_orders WHERE letter_file IS NOT NULL
    UNION ALL
    SELECT 'letters/stormwater/' || letter_file, 'stop_work_order', site_id, issued_on,
           coalesce(ready_to_mail, FALSE) AND status = 'mailed', not_ready_reason, order_id, recipient_name,
           'stormwater', status = 'mailed'
    FROM swppp_stop_work_orders WHERE letter_file IS NOT NULL
    UNION ALL
    SELECT 'letters/stormwater/' || letter_file,
           CASE kind WHEN 'notice_of_violation' THEN 'illicit_notice_of_violation'
                ELSE 'illicit_' || kind END,
           case_id, dated, ready_to_mail, not_ready,
           case_id || CASE kind WHEN 'notice_of_violation' THEN '-NOV' ELSE '-COST' END, NULL, 'stormwater',
           NOT draft
    FROM illicit_discharge_letters WHERE letter_file IS NOT NULL
    UNION ALL
    SELECT DISTINCT 'letters/sewer/' || letter_file, 'snc_publication', NULL, make_date(year, 12, 31),
           year_closed,
           CASE WHEN NOT year_closed
                THEN 'the year ' || year || ' has not ended: the list is provisional' END,
           letter_file, NULL, 'sewer', FALSE
    FROM snc_publication WHERE letter_file IS NOT NULL
)
ORDER BY area, letter
