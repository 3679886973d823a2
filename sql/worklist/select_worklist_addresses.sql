-- Recipients whose ZIP code differs between two input files.
SELECT recipient_name, recipient_id, source, zip, other_source, other_zip, detail
FROM address_conflicts
ORDER BY recipient_name, source, other_source
