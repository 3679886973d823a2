-- Every judged daily maximum and monthly average (statistic_results, contract 5.2) with the
-- calendar period of $period_months months holding it (a monthly average: the period holding
-- its month), for significant noncompliance (40 CFR 403.8(f)(2)(viii)(A) and (B) count every
-- numeric limit). A statistic with no value (no results) is not a measurement.
SELECT user_id, parameter, statistic, period_start AS statistic_start, value, limit_value, passes,
       make_date(year(period_start), ((month(period_start) - 1) // $period_months) * $period_months + 1, 1)
           AS period_start
FROM statistic_results
WHERE value IS NOT NULL AND limit_value IS NOT NULL AND statistic IN ('daily_max', 'monthly_avg')
ORDER BY user_id, parameter, period_start, statistic, statistic_start;
