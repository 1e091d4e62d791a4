"""Benchmarks of the adjudicator (``python -m bench`` / ``make bench``): see __main__.py."""
