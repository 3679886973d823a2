"""Test oracles: the law's readings that production applies in SQL, stated again in plain Python
for small inputs, so that tests/test_oracles.py can run both on the same inputs and compare.
Nothing outside tests/ imports them. (The slug definition's reading is in outfall/demo/slugs.py:
the demo town plans its real meter's slug reports with it.)"""
