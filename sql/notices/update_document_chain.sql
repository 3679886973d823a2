-- One record's place in the chain: the previous record's chain value and its own.
UPDATE main.documents_issued SET prev_sha256 = $prev, chain_sha256 = $chain WHERE document_id = $document_id
