"""Tests of the workspace tools (a package, so module names never clash with other test folders)."""
