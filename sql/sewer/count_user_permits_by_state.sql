-- The permits of user_permits by state, for the asset's metadata: in force and given by the inputs, in
-- force though no input gives them any longer (to confirm), withdrawn.
SELECT CASE WHEN status = 'withdrawn' THEN 'withdrawn'
            WHEN in_inputs THEN 'in_force'
            ELSE 'in_force_no_longer_in_inputs'
       END AS state,
       count(*) AS permits
FROM user_permits
GROUP BY ALL
ORDER BY state;
