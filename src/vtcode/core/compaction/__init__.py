"""Continuity compaction, pure: thresholds, groups, tail selection, summaries, assembly (SPEC section 6)."""
