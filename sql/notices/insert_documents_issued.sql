-- New records of documents written for a mailing (registered as _new_records); their chain values are set
-- next (update_document_chain).
INSERT INTO main.documents_issued BY NAME SELECT * FROM _new_records
