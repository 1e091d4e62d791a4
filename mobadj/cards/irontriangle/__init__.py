"""Mobsters of the Iron Triangle (rules: shared/rules/iron-triangle.md; rulings and command
language: docs/cards/irontriangle.md)."""
