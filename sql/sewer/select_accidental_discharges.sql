-- Accidental discharges with the local dates of the discharge and of the notification.
SELECT user_id, occurred_at, CAST(occurred_at AS DATE) AS occurred_on, notified_at,
       CAST(notified_at AS DATE) AS notified_on, statement_received_on, description
FROM accidental_discharges
ORDER BY user_id, occurred_at
