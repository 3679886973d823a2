"""Assets of the stormwater management officer (the stormwater law of each jurisdiction):
SWPPP inspections, findings and notices (``swppp``) and the stormwater page (``page``).
Their SQL lives in ``sql/stormwater/``."""
