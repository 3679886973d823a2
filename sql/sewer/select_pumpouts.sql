-- Grease trap pump-outs (pumpouts).
SELECT trap_id, pumped_on, hauler, invoice_no
FROM pumpouts
ORDER BY trap_id, pumped_on
