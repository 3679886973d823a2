-- The billing page's surcharges (table surcharges): every user, month and kind surcharged (pounds, gallons
-- or an amount above nothing, or a month not judged for want of its volume or concentration), with its
-- pounds or gallons and its amount (or where the amount is set, or that no rate is adopted), latest month
-- first. A month whose concentration stayed at or under its threshold owes nothing and is counted apart.
SELECT
    user_id, name, period_start, kind, parameter, concentration_mgl, limit_mgl, threshold_kind, pounds,
    gallons_charged, rate_usd_per_lb, base_amount_usd, multiplier, amount_usd, amount_set_by, rule,
    count(*) OVER () AS judged
FROM surcharges
QUALIFY
    coalesce(pounds, 0) > 0 OR coalesce(amount_usd, 0) > 0 OR coalesce(gallons_charged, 0) > 0
    OR (kind = 'pounds' AND pounds IS NULL)
ORDER BY period_start DESC, user_id, kind, parameter
