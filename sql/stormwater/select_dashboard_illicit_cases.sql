-- The illicit discharge cases (Woodbury ch. 185) as the stormwater page lists them.
SELECT case_id, premises, discovered_on, description
FROM illicit_discharges;
