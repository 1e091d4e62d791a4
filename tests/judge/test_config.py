"""judge.yaml: public settings in the file, secrets from the environment only."""

from pathlib import Path

import pytest

from mobadj.judge.config import ConfigError, config_from_data, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_example_config_loads(monkeypatch):
    cfg = load_config(ROOT / "judge.example.yaml")
    assert "@" in cfg.address
    assert cfg.imap is not None and cfg.smtp is not None
    monkeypatch.setenv(cfg.imap.password_env, "s3cret")
    assert cfg.imap.password == "s3cret"
    assert cfg.db_path.name == "judge.sqlite"


def test_password_in_file_is_refused():
    data = {"judge": {"address": "j@x.org"}, "imap": {"host": "h", "password": "oops"}}
    with pytest.raises(ConfigError, match="secrets do not belong"):
        config_from_data(data)


def test_missing_secret_env_is_a_clear_error(monkeypatch):
    cfg = config_from_data(
        {"judge": {"address": "j@x.org"}, "smtp": {"host": "h", "password_env": "NOPE_X"}}
    )
    monkeypatch.delenv("NOPE_X", raising=False)
    with pytest.raises(ConfigError, match="NOPE_X"):
        _ = cfg.smtp.password


@pytest.mark.parametrize(
    "data, message",
    [
        ({"judge": {}}, "missing key 'address'"),
        ({"judge": {"address": "nobody"}}, "expected an email address"),
        ({"judge": {"address": "a@b", "timezone": "Mars/Base"}}, "unknown time zone"),
        ({"judge": {"address": "a@b"}, "imap": {"host": "h", "tls": "maybe"}}, "ssl, starttls"),
    ],
)
def test_bad_configs_explain(data, message):
    with pytest.raises(ConfigError, match=message):
        config_from_data(data)


def test_relative_data_dir_is_beside_the_file(tmp_path):
    f = tmp_path / "judge.yaml"
    f.write_text("judge: {address: j@x.org, data_dir: data}\n")
    assert load_config(f).data_dir == tmp_path / "data"
