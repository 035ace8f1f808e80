"""Pure logic of command sessions: results, previews, spools, waits and text cleaning."""
