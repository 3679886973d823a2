-- The illicit discharge cases the deadlines asset set aside (in quarantine, judged_by), by case id.
SELECT DISTINCT json_extract_string(raw, '$.case_id') AS case_id
FROM quarantine
WHERE judged_by = 'illicit_discharge_deadlines' AND dataset = 'illicit_discharges';
