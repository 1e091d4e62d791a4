"""Mobtown II: Gangs and Dons, highways, subways and the police gaol.

A variant of the engine: ``maps/mobtown2.yaml`` names :class:`~mobadj.mobtown.rules.MobtownRules`,
and the engine (mobadj.engine.adjudicate, the same pipeline as for every map) resolves the
Gangs as amphibious armies and asks its hooks what Mobtown changes.  One job per module, each
importing only those above it:

- ``terms``     Mobtown's reasons, the gaol, water, the links a Gang may use;
- ``calendar``  weeks, weekends and the June 1919 start (rule 6);
- ``state``     positions with Dons (free, alone, captive) and the gaol; the text form;
- ``notation``  the rulebook's order notation (a grammar extension);
- ``dons``      where Dons go after a turn: moved, left behind, captured, drowned (rule 3);
- ``weekend``   Don placement, retreats (rules 5, 7) and the Don rebuild (rule 3);
- ``rules``     the hooks the engine asks (rules 2-8) and the game options.

Rulings and options: docs/mobtown-rulings.md.
"""
