-- Every file of every document issued (its HTML and the file recorded, the PDF where one was printed),
-- relative to the dashboards folder: no run writes, rewrites or removes one, whatever day it judges by.
SELECT html_file AS file FROM main.documents_issued
UNION
SELECT file FROM main.documents_issued
