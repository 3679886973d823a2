-- The letters to print to PDF: every letter ready to mail (a draft notice is not), and every document
-- already on record (never printed again: its PDF is kept). letter, letter_kind, area, dated, recorded,
-- ready.
SELECT letter, letter_kind, area, dated, recorded, ready
FROM letters
WHERE ready OR recorded
ORDER BY area, letter
