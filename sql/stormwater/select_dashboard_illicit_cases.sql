-- The illicit discharge cases (the illicit discharge law) as the stormwater page lists them.
SELECT case_id, premises, discovered_on, description
FROM illicit_discharges;
