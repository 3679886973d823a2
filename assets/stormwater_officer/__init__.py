"""Assets of the stormwater management officer (Woodbury ch. 267, Bellport ch. 21):
SWPPP inspections, findings and notices (``swppp``) and the stormwater page (``page``).
Their SQL lives in ``sql/stormwater/``."""
