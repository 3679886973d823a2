"""Assets of the clerk: the annual sewer bill register (the sewer rate schedule,
``billing``) and the billing page (``page``). Their SQL lives in ``sql/billing/``."""
