-- The letters of the illicit discharge cases, and whether each is a draft or ready to mail.
SELECT case_id, kind, letter_file, draft, ready_to_mail
FROM illicit_discharge_letters;
