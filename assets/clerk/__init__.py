"""Assets of the clerk: the annual sewer bill register (Woodbury ch. 253 Part 3,
``billing``) and the billing page (``page``). Their SQL lives in ``sql/billing/``."""
