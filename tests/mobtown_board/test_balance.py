"""Balance of the reconstructed board: homes together, >= 3 directions, nobody starved, every
mob's distance total within 5% of the mean and 3 to 4 neutral centres within two moves, a
highway crossing without a junction counting as two moves (maps/mobtown2.yaml, `balance:`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mobadj.board.balance import (
    BalanceBounds,
    BalanceError,
    balance_lines,
    balance_problems,
    balance_report,
    expansion_directions,
    mean_total,
    move_cost,
    move_distances,
    neutral_centers,
    province_costs,
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


def test_the_map_declares_its_bounds(gm):
    assert BalanceBounds.of(gm) == BalanceBounds(
        crossing_moves=2, min_within_two=3, max_within_two=4, total_tolerance=0.05)
    assert BalanceBounds.of(load_map("standard")) == BalanceBounds()


def test_distance_totals_within_five_percent_of_the_mean(figures):
    mean = mean_total(list(figures.values()))
    for fig in figures.values():
        assert len(fig.distances) == 14, fig  # every neutral centre is reachable
        assert abs(fig.total - mean) <= 0.05 * mean, (fig.power, fig.total, mean)


def test_three_to_four_neutral_centres_within_two_moves(figures):
    for fig in figures.values():
        assert 3 <= fig.within[1] <= 4, fig


def test_a_highway_crossing_counts_two_moves(gm):
    assert move_cost({"via": "highway", "highway": "Ness Turnpike"}, 2) == 2
    assert move_cost({"via": "highway", "highway": "H", "diagonal": "true"}, 2) == 2
    assert move_cost({"via": "junction"}, 2) == 1
    assert move_cost({"via": "subway"}, 2) == 1
    assert move_cost({"via": "highway", "highway": "H", "subway": "true"}, 2, ("subway",)) == 1
    assert move_cost({"via": "highway", "highway": "H", "subway": "true"}, 2) == 2  # no route
    two = province_costs(gm, 2)
    assert two["Bro"]["Bur"] == 2 and two["Bur"]["Bro"] == 2  # across the Ness Turnpike
    assert two["GoG"]["P22"] == 1  # at the junction
    assert two["DtB"]["Lin"] == 1  # the subway passes under the turnpike
    assert move_distances(gm, ["Bro"], two)["Bur"] == 2
    assert move_distances(gm, ["Bro"])["Bur"] == 1  # the map's default counts a move


def test_figures_use_the_declared_crossing_cost(gm, figures):
    assert figures["diamond"].distances["P22"] == 2  # Bro-GoG, then the junction
    assert figures["capone"].distances["Riv"] == 2  # DAN-Len junction, then Riverside
    one = {f.power: f for f in balance_report(gm, bounds=BalanceBounds())}
    assert sum(f.total for f in one.values()) < sum(f.total for f in figures.values())


def test_out_of_bounds_totals_are_reported(gm):
    tight = BalanceBounds(crossing_moves=2, min_within_two=3, max_within_two=3,
                          total_tolerance=0.01)
    problems = balance_problems(gm, tight)
    assert any("distance total" in p and "allowed 1%" in p for p in problems)
    assert any("neutral centres within 2 moves, more than 3" in p for p in problems)


def test_bad_balance_key_is_a_clear_warning(tmp_path):
    text = (Path(__file__).resolve().parents[2] / "maps" / "mobtown2.yaml").read_text()
    for bad, says in [("  crossing_moves: 2\n", "  crossing_mvoes: 2\n"),
                      ("  crossing_moves: 2\n", "  crossing_moves: two\n")]:
        path = tmp_path / "m.yaml"
        path.write_text(text.replace(bad, says), encoding="utf-8")
        broken = load_map(path)
        with pytest.raises(BalanceError):
            BalanceBounds.of(broken)
        lines = balance_lines(broken)
        assert len(lines) == 1 and lines[0].startswith("balance warning:")
        assert ("unknown key 'crossing_mvoes'" in lines[0]
                or "balance.crossing_moves: expected a whole number, got 'two'" in lines[0])
        result = CliRunner().invoke(main, ["map", "check", str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "balance warning:" in result.output


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
    lines = balance_lines(gm)
    assert "a highway crossing without a junction counts 2" in lines[0]
    assert lines[1].split() == [*neutral_centers(gm), "total", "vs", "mean"]
    assert lines[2].split()[0] == "capone" and lines[2].split()[-1].endswith("%")
    assert any(line.startswith("  bounds: 3 to 4 neutral centres within 2 moves") for line in lines)
