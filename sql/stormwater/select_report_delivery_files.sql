-- Whether report deliveries are tracked at all (any file of the folder loaded).
SELECT count(*) AS files FROM ingested_files WHERE dataset = 'report_deliveries';
