"""instructions layer."""
