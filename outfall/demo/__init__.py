"""Sample data for the Outfall demo: adapters for the bundled real records
(:mod:`outfall.demo.real`) and a seeded generator of a plausible town
(:mod:`outfall.demo.generate`). Both write the contract's input format."""
