"""Definition files (skills, commands, agents): frontmatter, models and rendering (pure)."""
