-- Reports due from industrial users (input folder reports).
SELECT user_id, report_type, period_start, period_end, due_date, received_on, source_file, source_row
FROM reports
ORDER BY user_id, report_type, coalesce(period_end, due_date, received_on), due_date, received_on
