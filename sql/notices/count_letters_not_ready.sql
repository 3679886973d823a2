-- Letters not ready to mail, drafts of notices aside (they are not dated until their mailing is recorded).
SELECT count(*) FROM letters
WHERE NOT ready AND NOT (letter_kind IN ('sewer_notice', 'stormwater_notice') AND NOT mailed)
