-- The findings at the municipality's own sites that one asset ($source) found, before it writes this run's.
DELETE FROM own_findings WHERE source = $source
