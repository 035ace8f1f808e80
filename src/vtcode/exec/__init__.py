"""Processes: every subprocess, process group and signal of vtcode lives here."""
