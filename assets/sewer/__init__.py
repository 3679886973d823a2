"""Assets of the Superintendent of Sewage (the sewer use law): discharge limits,
statistic limits, slugs and infiltration (``compliance``), enforcement (``enforcement``
names them: notices of violation in ``violations``, deadlines in ``deadlines``,
significant noncompliance in ``snc`` and ``publication``, grease traps in ``grease``,
their shared scaffolding in ``dated``), and the sewer page (``page``).
Their SQL lives in ``sql/sewer/``."""
