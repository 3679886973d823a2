"""Assets of the Superintendent of Sewage (Woodbury ch. 253 Part 2): discharge limits,
statistic limits, slugs and infiltration (``compliance``), enforcement, notices and
significant noncompliance (``enforcement``), and the sewer page (``page``).
Their SQL lives in ``sql/sewer/``."""
