"""Token counting with the BPE encoding shipped as package data (DESIGN section 3: never downloaded)."""
