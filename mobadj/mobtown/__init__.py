"""Mobtown II: Gangs and Dons, highways, subways and the police gaol.

A layer over the engine: the engine resolves the Gangs (as amphibious armies) through the
hooks of :class:`~mobadj.mobtown.rules.MobtownRules`; this package adds what the engine does
not know.  One job per module:

- ``rules``     the engine hooks (rules 2-5, 7) and the game options;
- ``state``     positions with Dons (free, alone, captive) and the gaol; the text form;
- ``calendar``  weeks, weekends and the June 1919 start (rule 6);
- ``dons``      where Dons go after a turn: moved, left behind, captured, drowned (rule 3);
- ``weekend``   Don placement, retreats (rules 5, 7) and adjustments (Don rebuild, rule 3);
- ``turn``      one phase: ``adjudicate(position, orders, game_map, rules)``;
- ``notation``  the rulebook's order notation (a grammar extension);
- ``report``, ``batch``, ``cli``   what the GM, ``mobadj batch`` and ``mobadj adjudicate`` see.

Rulings and options: docs/mobtown-rulings.md.
"""
