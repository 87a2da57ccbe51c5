"""Food-themed board games server."""
