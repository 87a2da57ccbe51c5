"""Use cases: identity, tables, play."""
