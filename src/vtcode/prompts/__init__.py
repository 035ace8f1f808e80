"""prompts layer."""
