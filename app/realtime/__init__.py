"""Live updates: the per-table socket hub and the cross-process broker."""
