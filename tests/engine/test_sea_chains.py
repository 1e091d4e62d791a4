"""SeaChains: the convoy chains of a phase, grouped once, answer like a plain search."""

from __future__ import annotations

import random

from mobadj.engine.topology import SeaChains, Topology, topology_for

from .helpers import STANDARD


def _flood(topo: Topology, start: str, seas: set[str]) -> set[str]:
    """The seas reachable from ``start`` through ``seas``."""
    seen = {s for s in topo.fleet_reach[start] if s in seas}
    frontier = list(seen)
    while frontier:
        for t in topo.fleet_reach[frontier.pop()]:
            if t in seas and t not in seen:
                seen.add(t)
                frontier.append(t)
    return seen


def _chordless(topo: Topology, origin: str, dest: str, seas: set[str]) -> set[str]:
    """Every sea on some chain origin -> sea ... sea -> dest that no sea of the chain could
    shorten: each chain enumerated, nothing pruned."""
    fr = topo.fleet_reach
    found: set[str] = set()

    def extend(chain: list[str]) -> None:
        last = chain[-1] if chain else origin
        if chain and dest in fr[last]:
            found.update(chain)
            return
        for t in fr[last]:
            if t not in seas or t in chain:
                continue
            earlier = [origin, *chain][:-1]
            if any(t in fr[x] for x in earlier):  # a chord
                continue
            extend([*chain, t])

    extend([])
    return found


def test_necessary_seas_are_those_on_some_chordless_chain() -> None:
    topo = topology_for(STANDARD)
    rng = random.Random(5)
    seas = sorted(topo.sea)
    coasts = sorted(topo.coastal)
    asked = answered = 0
    for _ in range(400):
        occupied = set(rng.sample(seas, rng.randint(0, len(seas))))
        chains = SeaChains(topo, occupied)
        for _ in range(5):
            origin, dest = rng.sample(coasts, 2)
            want = _chordless(topo, origin, dest, occupied)
            assert chains.between(origin, dest) == sum(
                topo.bit[s] for s in _flood(topo, origin, occupied) & _flood(topo, dest, occupied))
            assert chains.necessary(origin, dest) == want, (origin, dest, sorted(occupied))
            assert topo.necessary_seas(origin, dest, occupied) == want
            asked += 1
            answered += len(want) > 1
    assert answered > asked // 10  # long chains were asked about, not only single fleets


def test_a_fleet_that_only_lengthens_a_chain_is_not_necessary() -> None:
    topo = topology_for(STANDARD)
    chains = SeaChains(topo, {"TYS", "ION", "MAO", "NAO", "NWG"})
    assert chains.necessary("TUN", "ROM") == {"TYS"}  # TUN-ION-TYS-ROM has the chord TUN-TYS
    assert chains.necessary("TUN", "NAP") == {"TYS", "ION"}  # two chains of one fleet
    assert chains.necessary("NAF", "EDI") == {"MAO", "NAO", "NWG"}
    assert chains.necessary("TUN", "EDI") == set()  # TYS and MAO are not connected
    assert SeaChains(topo, {"NAO"}).necessary("NAF", "EDI") == set()


def test_a_convoy_route_exists_where_a_plain_search_finds_one() -> None:
    """Topology.convoy_route_exists (and its mask form, which the resolver asks) against a
    flood fill over sets of provinces."""
    topo = topology_for(STANDARD)
    rng = random.Random(6)
    seas = sorted(topo.sea)
    coasts = sorted(topo.coastal)
    found = 0
    for _ in range(2000):
        occupied = set(rng.sample(seas, rng.randint(0, len(seas))))
        origin, dest = rng.sample(coasts, 2)
        want = any(dest in topo.fleet_reach[s] for s in _flood(topo, origin, occupied))
        assert topo.convoy_route_exists(origin, dest, occupied) is want
        mask = sum(topo.bit[s] for s in occupied)
        assert topo.convoy_route_within(origin, dest, mask) is want
        found += want
    assert 200 < found < 1800


def test_the_masks_of_seas_and_coasts_are_small_integers() -> None:
    """Seas and coasts take the low bits (Topology.by_bit): every fleet mask of the
    standard map fits in 62 bits, the compiled build's machine-sized integers."""
    topo = topology_for(STANDARD)
    assert max(topo.fleet_mask.values()) < 1 << 62
    assert all(topo.bit[s] < topo.bit[c] for s in topo.sea for c in topo.coastal)
    assert topo.provinces_in(sum(topo.bit[p] for p in ("NTH", "LON", "MUN"))) == {
        "NTH", "LON", "MUN"}
