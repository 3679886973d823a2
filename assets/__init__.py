"""Dagster assets of Outfall, one module per user they serve.

``pipelines/definitions.py`` collects every asset and asset check defined in
this package, so a new module here needs no registration.
"""
