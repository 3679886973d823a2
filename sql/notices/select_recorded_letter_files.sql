-- The letters of one area ($area: sewer, stormwater) on record as mailed documents: no run writes them again.
SELECT html_file FROM main.documents_issued WHERE area = $area
UNION
SELECT file FROM main.documents_issued WHERE area = $area
