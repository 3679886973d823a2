-- The year's biggest changes from the previous billed year (bill_changes), largest first.
SELECT parcel_id, change, district_before, district_after, class_before, class_after,
       units_bond_change, units_om_change, units_street_lateral_change, units_house_lateral_change,
       total_before::DOUBLE AS total_before, total_after::DOUBLE AS total_after,
       total_change::DOUBLE AS total_change, detail
FROM bill_changes
WHERE year = $year AND compared_to = 'previous_year'
  AND run_id = (SELECT max(run_id) FROM billing_runs WHERE year = $year)  -- the latest run only
ORDER BY abs(coalesce(total_change, 0)) DESC, parcel_id
LIMIT $limit;
