"""Mice Heist: mice pull off jobs together and squabble over the food (rules in
``/work/shared/rules/mice-heist.md``; rulings in ``docs/cards/miceheist.md``)."""
