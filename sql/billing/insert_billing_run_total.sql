-- One district and component of a billing run: rate used, its source, units and amount.
INSERT INTO billing_run_totals (run_id, year, district, component, parcels_charged, units, rate_per_unit,
                                rate_source, budget_usd, amount_usd, rule)
VALUES ($run_id, $year, $district, $component, $parcels_charged, $units,
        CAST($rate_per_unit AS DECIMAL(18,6)),
        $rate_source, CAST($budget_usd AS DECIMAL(12,2)), CAST($amount_usd AS DECIMAL(12,2)), $rule);
