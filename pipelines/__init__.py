"""Dagster entry point of Outfall: ``pipelines.definitions:defs``."""
