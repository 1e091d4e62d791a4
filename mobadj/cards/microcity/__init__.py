"""Micro City (rulebook shared/rules/micro-city.md): engine, commands, view, bot."""
