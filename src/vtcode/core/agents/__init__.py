"""Subagent definitions (pure): frontmatter, tool names, built-ins, precedence."""
