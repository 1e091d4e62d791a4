"""Commands registered on the root group (filled in by its owner)."""
