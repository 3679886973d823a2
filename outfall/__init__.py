"""Outfall: sewer and stormwater compliance data pipeline."""

__version__ = "0.1.0"
