"""Balance of the reconstructed board (issue 3: homes together, >= 3 directions, nobody starved)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mobadj.board.balance import (
    balance_lines,
    balance_problems,
    balance_report,
    expansion_directions,
    move_distances,
    neutral_centers,
)
from mobadj.board.loader import load_map
from mobadj.cli import main


@pytest.fixture(scope="module")
def gm():
    return load_map("mobtown2")


@pytest.fixture(scope="module")
def figures(gm):
    return {f.power: f for f in balance_report(gm)}


def test_fourteen_neutral_centres(gm):
    assert len(neutral_centers(gm)) == 14


def test_homes_lie_together(gm):
    """Each mob's three homes are mutually neighbours without a highway between them."""
    for power in gm.powers.values():
        homes = power.home_centers
        for a in homes:
            for b in homes:
                if a != b:
                    assert gm.edge("G", a, b)["via"] == "plain", (power.id, a, b)


def test_three_directions_of_expansion(figures):
    for fig in figures.values():
        assert fig.directions >= 3, fig


def test_no_mob_is_starved(figures):
    for fig in figures.values():
        assert fig.within[1] >= 3 and fig.within[2] >= 4, fig
    spread = [f.within[2] for f in figures.values()]
    assert max(spread) - min(spread) <= 4


def test_every_mob_is_nearest_to_some_neutral_centre(figures):
    for fig in figures.values():
        assert len(fig.nearest) >= 2, fig


def test_every_neutral_centre_is_contested(figures, gm):
    """No neutral centre is a private garden: a second mob reaches it within two more moves."""
    for n in neutral_centers(gm):
        ds = sorted(f.distances[n] for f in figures.values())
        assert ds[1] - ds[0] <= 2, (n, ds)


def test_no_balance_problems(gm):
    assert balance_problems(gm) == []


def test_distances_do_not_pass_through_gaol_or_bay(gm):
    tiny = {"X": {"MTPD"}, "MTPD": {"X", "Y"}, "Y": {"MTPD"}}
    assert move_distances(gm, ["X"], tiny) == {"X": 0, "MTPD": 1}  # Y only beyond the gaol
    d = move_distances(gm, ["Riv"])
    assert d["MTPD"] == 1
    assert "Bay" not in d
    assert all(v >= 0 for v in d.values())


def test_directions_count_disjoint_routes(gm):
    assert expansion_directions(gm, "capone", radius=0) == 0
    assert expansion_directions(gm, "capone", radius=1) == 1  # only Columbus is next door


def test_standard_map_figures():
    fig = {f.power: f for f in balance_report(load_map("standard"))}
    assert fig["GERMANY"].distances["DEN"] == 1 and fig["TURKEY"].distances["BUL"] == 1
    assert fig["ENGLAND"].within == (0, 4, 7)


def test_map_check_prints_balance(gm):
    result = CliRunner().invoke(main, ["map", "check", "mobtown2"])
    assert result.exit_code == 0, result.output
    assert "0 error(s), 0 warning(s)" in result.output
    assert "balance: moves from each power's nearest home centre" in result.output
    assert "directions of expansion" in result.output and "balance warning" not in result.output
    quiet = CliRunner().invoke(main, ["map", "check", "mobtown2", "--no-balance"])
    assert "balance" not in quiet.output
    assert balance_lines(gm)[1].split() == neutral_centers(gm)
