-- The illicit discharge cases (the illicit discharge law) with, when the premises is a parcel number,
-- that parcel's owner and address (for the letters).
SELECT d.case_id, d.premises, d.discovered_on, d.hazardous, d.notified_on, d.written_confirmation_on,
       d.nov_on, d.abatement_due, d.appeal_received_on, d.appeal_decided_on, d.hearing_on, d.appeal_outcome,
       d.abated_on, d.abated_by,
       d.abatement_cost_usd, d.cost_notice_on, d.protest_received_on, d.responsible_party,
       d.mailing_address, d.description, d.nov_requires, d.source_file, d.source_row,
       p.owner AS parcel_owner, p.address AS parcel_address
FROM illicit_discharges AS d
LEFT JOIN (SELECT parcel_id, any_value(owner) AS owner, any_value(address) AS address
           FROM parcels GROUP BY parcel_id) AS p
       ON lower(trim(p.parcel_id)) = lower(trim(d.premises))
ORDER BY d.case_id;
