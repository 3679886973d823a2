-- The billing page's fees of the samples the town took (table sampling_fees), one row per sample: its
-- items and their total, latest sample first.
SELECT
    user_id, sample_id, collected_date,
    string_agg(item || coalesce(' (' || parameter || ')', '') || ': $' || CAST(usd AS VARCHAR), '; '
        ORDER BY item, parameter) AS items,
    sum(usd) AS total_usd,
    any_value(regexp_replace(rule, ': [^:]*$', '')) AS rule
FROM sampling_fees
GROUP BY user_id, sample_id, collected_date
ORDER BY collected_date DESC, user_id, sample_id
