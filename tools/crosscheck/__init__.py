"""Cross-checking mobadj against an independent adjudicator (docs/crosscheck.md)."""
