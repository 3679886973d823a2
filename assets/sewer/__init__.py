"""Assets of the Superintendent of Sewage (the sewer use law): discharge limits,
statistic limits, slugs and infiltration (``compliance``), enforcement, notices and
significant noncompliance (``enforcement``), and the sewer page (``page``).
Their SQL lives in ``sql/sewer/``."""
