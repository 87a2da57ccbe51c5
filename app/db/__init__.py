"""Database models and sessions."""
