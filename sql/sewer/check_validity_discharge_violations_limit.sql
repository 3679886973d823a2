-- Violations that do not break their limit (a maximum exceeded strictly; a
-- minimum broken below it, or by a non-detect at or below it): none expected.
SELECT count(*) FROM discharge_violations v
WHERE NOT ((v.limit_type = 'max' AND v.value > v.limit_value)
        OR (v.limit_type = 'min' AND v.value <= v.limit_value))
