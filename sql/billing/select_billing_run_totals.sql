-- One run's rates used and totals per district and component.
SELECT district, component, parcels_charged, units, rate_per_unit, rate_source, budget_usd, amount_usd
FROM billing_run_totals
WHERE run_id = $run_id
ORDER BY district, list_position(['bond', 'om', 'street_lateral', 'house_lateral'], component), component;
