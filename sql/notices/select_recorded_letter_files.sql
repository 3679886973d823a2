-- The letters of one area ($area: sewer, stormwater) on record as mailed documents: no run writes them again.
SELECT html_file FROM documents_issued WHERE area = $area
UNION
SELECT file FROM documents_issued WHERE area = $area
