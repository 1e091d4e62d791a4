"""Adjudication: positions, the movement resolver, retreats, adjustments, the turn pipeline."""
