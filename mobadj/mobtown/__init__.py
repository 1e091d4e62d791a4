"""Mobtown II: Gangs and Dons, highways, subways and the police gaol."""
