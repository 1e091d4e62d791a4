"""mobadj: adjudicator, email judge and card-game engines for Mobtown II and friends."""

__version__ = "0.1.0"
