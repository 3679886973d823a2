-- The illicit discharge cases the deadlines asset set aside (table set_aside), by case id.
SELECT DISTINCT json_extract_string(raw, '$.case_id') AS case_id
FROM set_aside
WHERE judged_by = 'illicit_discharge_deadlines' AND dataset = 'illicit_discharges';
