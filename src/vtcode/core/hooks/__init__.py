"""Lifecycle hooks, the pure part: events, matchers, tool-name aliases, decisions and trust digests."""
