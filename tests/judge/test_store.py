"""The SQLite store: schema, transactions, password hashing, outbox (real files)."""

import pytest

from mobadj.judge.store import Mail, Store, hash_password, verify_password


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "judge.sqlite")
    yield s
    s.close()


def test_password_hash_is_salted_scrypt_and_verifies():
    h1, h2 = hash_password("tulip", n=2**10), hash_password("tulip", n=2**10)
    assert h1.startswith("scrypt$1024$") and h1 != h2  # salted
    assert "tulip" not in h1
    assert verify_password("tulip", h1) and verify_password("tulip", h2)
    assert not verify_password("Tulip", h1)
    assert not verify_password("tulip", "garbage")


def test_transaction_commits_or_rolls_back_everything(store, tmp_path):
    with store.transaction():
        store.create_game("g1", "standard", {"press": "white"}, 42, "gm@x.org", "h", 0.0)
        store.add_player("g1", "ENGLAND", "E@X.org", "h")
    with pytest.raises(RuntimeError), store.transaction():
        store.record_mail("<m1>", 7, "e@x.org", "s", 1.0, "ok")
        store.set_orders("g1", "S1901M", "ENGLAND", "F LON - NTH", 1.0, "<m1>")
        raise RuntimeError("crash in the middle")
    assert not store.mail_seen("<m1>")
    assert store.orders("g1", "S1901M") == {}
    # and a fresh connection sees the committed part only
    again = Store(tmp_path / "judge.sqlite")
    g = again.game("G1")
    assert g is not None and g.options == {"press": "white"} and g.seed == 42
    assert again.players("g1")[0].email == "e@x.org"
    again.close()


def test_orders_replace_earlier_ones(store):
    with store.transaction():
        store.create_game("g", "standard", {}, 1, "gm@x", "h", 0)
        store.set_orders("g", "S1901M", "FRANCE", "A PAR H", 1, "<a>")
        store.set_orders("g", "S1901M", "FRANCE", "A PAR - BUR", 2, "<b>")
    assert store.orders("g", "S1901M") == {"FRANCE": "A PAR - BUR"}


def test_mail_seen_by_message_id_and_uid(store):
    with store.transaction():
        store.record_mail("<x@y>", 12, "a@b", "subj", 1.0, "handled")
    assert store.mail_seen("<x@y>") and store.uid_seen(12) and not store.uid_seen(13)
    assert store.max_uid() == 12


def test_outbox_round_trips_attachments(store):
    with store.transaction():
        mid = store.queue(Mail("p@x", "Results", "body", [("map.svg", "image/svg+xml", b"<svg/>")],
                               {"X-Game": "g"}, game="g"), 5.0)
    (m,) = store.unsent()
    assert m.id == mid and m.attachments == [("map.svg", "image/svg+xml", b"<svg/>")]
    assert m.headers == {"X-Game": "g"}
    with store.transaction():
        store.mark_sent(mid, 6.0)
    assert store.unsent() == [] and len(store.all_mail()) == 1


def test_results_keep_state_before_for_rollback(store):
    with store.transaction():
        store.create_game("g", "standard", {}, 1, "gm@x", "h", 0)
        rid = store.add_result("g", "S1901M", {"a": 1}, {"a": 2}, {"F": ["A PAR H"]}, {}, 3)
    (r,) = store.results("g")
    assert r["state_before"] == {"a": 1} and r["state_after"] == {"a": 2}
    with store.transaction():
        store.mark_rolled_back(rid)
    assert store.results("g") == [] and len(store.results("g", include_rolled_back=True)) == 1


def test_auth_failures_counted_in_window(store):
    with store.transaction():
        for t in (1.0, 2.0, 100.0):
            store.add_auth_failure("a@b", t)
    assert store.auth_failures("a@b", since=50) == 1
    assert store.auth_failures("a@b", since=0) == 3
