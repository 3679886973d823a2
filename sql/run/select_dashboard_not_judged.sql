-- What the assets could not judge for want of a rule in effect on its day (table not_judged), for the
-- quarantine page: one line per asset, rules section and reason, with how many things, their first and
-- last day, and the first $examples of them by name.
-- Parameters: $examples.
SELECT asset, section, reason, count(*) AS items, min(day) AS first_day, max(day) AS last_day,
       list_slice(list(DISTINCT subject ORDER BY subject), 1, $examples) AS examples
FROM not_judged
GROUP BY asset, section, reason
ORDER BY asset, section, reason;
