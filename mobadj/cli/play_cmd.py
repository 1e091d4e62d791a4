"""``mobadj play``: card games at the terminal, and random-playout simulations."""

from __future__ import annotations

import json

import click

from mobadj.cards.protocol import GameError
from mobadj.cards.registry import GAMES, canonical_name, game_class
from mobadj.cards.simulate import simulate
from mobadj.cards.terminal import play_terminal
from mobadj.cli import main, option_pairs


def _options(pairs: tuple[str, ...]) -> dict[str, object]:
    """``--option key=value`` pairs; values parsed as YAML scalars (numbers, true/false)."""
    import yaml

    return {key: yaml.safe_load(value) for key, value in option_pairs(pairs, "key=value").items()}


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, help="Number of players (default: the game's minimum).")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Seed of the game RNG.")
@click.option("--simulate", "games", type=int, help="Play N random games; print one JSON object.")
@click.option("--bots", is_flag=True, help="With --simulate: every seat is played by the bot.")
@click.option("--bot", "bot_seats", type=int, multiple=True, help="Seat (1-based) for the bot.")
@click.option("--option", "-o", "option_pairs", multiple=True, help="Game option key=value.")
def play(
    game: str,
    players: int | None,
    seed: int,
    games: int | None,
    bots: bool,
    bot_seats: tuple[int, ...],
    option_pairs: tuple[str, ...],
) -> None:
    """Play GAME (micromob, miceheist, irontriangle, microcity) at the terminal."""
    try:
        name = canonical_name(game)
        cls = game_class(name)
    except KeyError as err:
        raise click.UsageError(f"{err.args[0]}") from None
    options = _options(option_pairs)
    n = players or cls.info.min_players
    if not cls.info.min_players <= n <= cls.info.max_players:
        raise click.UsageError(
            f"{cls.info.title} takes {cls.info.min_players}-{cls.info.max_players} players"
        )
    try:
        if games is not None:
            result = simulate(name, games, seed=seed, players=n, options=options, bots=bots)
            click.echo(json.dumps(result))
            return
        play_terminal(name, n, seed, {s - 1 for s in bot_seats}, options)
    except GameError as err:  # e.g. an option the game refuses: a message, not a traceback
        raise click.UsageError(str(err)) from None


play.help = (play.help or "") + "\n\nKnown games: " + ", ".join(sorted(GAMES))
