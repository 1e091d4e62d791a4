"""OAuth2 (SASL XOAUTH2) for the judge's mail servers, against servers that speak it: pymap
with XOAUTH2 turned on (IMAP) and aiosmtpd's auth hooks (SMTP), both checking the token the
way providers do (oauthservers.py).  The access token comes from a token command, as the GM
configures it; a refused token is refreshed at once and tried again."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from imapclient import IMAPClient

from mobadj.judge.config import ConfigError, MailServerError, config_from_data, load_config
from mobadj.judge.core import Judge
from mobadj.judge.mailbox import Mailbox
from mobadj.judge.mailer import Mailer
from mobadj.judge.oauth import TokenCommand, TokenError
from mobadj.judge.service import Service
from mobadj.judge.store import Store

from . import oauthservers
from .servers import nagle_off

pytestmark = pytest.mark.pure_only  # the mail servers' sign-in: no phase adjudicated

TOKEN_SCRIPT = textwrap.dedent("""\
    import pathlib, sys
    counter = pathlib.Path(sys.argv[1])
    n = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(n))
    print(f"tok-{n}")
""")


@pytest.fixture
def provider(tmp_path):
    servers = oauthservers.start(tmp_path, token="tok-2")
    admin = IMAPClient("127.0.0.1", port=servers.imap_port, ssl=False, timeout=10)
    nagle_off(admin)
    admin.login(oauthservers.USER, servers.demo_password)  # the test's own way in (PLAIN)
    admin.select_folder("INBOX")
    old = admin.search(["ALL"])  # pymap's demo mailbox holds a few mails: not for the judge
    if old:
        admin.delete_messages(old)
        admin.expunge()
    yield servers, admin
    admin.logout()
    servers.stop()


def write_config(tmp_path, servers) -> Path:
    (tmp_path / "token.py").write_text(TOKEN_SCRIPT)
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"name": "OAuth Judge", "address": oauthservers.JUDGE_ADDRESS,
                  "data_dir": "data", "timezone": "UTC"},
        "imap": {"host": "127.0.0.1", "port": servers.imap_port, "tls": "none",
                 "user": oauthservers.USER, "auth": "xoauth2", "poll_seconds": 1,
                 # a command line, run by the shell in judge.yaml's folder
                 "token_command": f"{sys.executable} token.py imap.count"},
        "smtp": {"host": "127.0.0.1", "port": servers.smtp_port, "tls": "none",
                 "user": oauthservers.USER, "auth": "xoauth2",
                 # a list of words, run without a shell
                 "token_command": [sys.executable, str(tmp_path / "token.py"),
                                   str(tmp_path / "smtp.count")]},
    }))
    return path


def player_mail(n: int, body: str = "help") -> bytes:
    m = EmailMessage()
    m["From"] = "anna@test.org"
    m["To"] = oauthservers.JUDGE_ADDRESS
    m["Subject"] = f"question {n}"
    m["Message-ID"] = f"<oauth-{n}@test.org>"
    m.set_content(body)
    return m.as_bytes()


def test_refused_tokens_are_refreshed_on_both_servers(tmp_path, provider):
    servers, admin = provider
    cfg = load_config(write_config(tmp_path, servers))
    judge = Judge(Store(cfg.db_path), cfg, kdf_n=2**10)
    assert cfg.imap is not None and cfg.smtp is not None
    service = Service(judge, Mailbox(cfg.imap), Mailer(cfg.smtp, cfg.address, cfg.name,
                                                       judge.clock))
    try:
        admin.append("INBOX", player_mail(1))
        # the helpers' first tokens (tok-1) are stale: refused, refreshed (tok-2), accepted
        assert service.step() == 1
        reply = servers.handler.delivered["anna@test.org"]
        assert len(reply) == 1 and b"SIGNON <game> <power> <password>" in reply[0]
        assert servers.exchanges() == [
            "imap refused tok-1", "imap error answered with b''", "imap accepted tok-2",
            "smtp refused tok-1", "smtp error answered with b''", "smtp accepted tok-2"]
        assert service.mailbox.tokens.runs == 2 and service.mailer.tokens.runs == 2

        # the token in hand is used again, without running the command
        admin.append("INBOX", player_mail(2))
        assert service.step() == 1
        assert service.mailbox.tokens.runs == 2 and service.mailer.tokens.runs == 2
        assert servers.exchanges()[-1] == "smtp accepted tok-2"

        # an hour on, the provider has a new token: both sides refresh when refused
        servers.token_file.write_text("tok-3")
        service.mailbox.close()
        admin.append("INBOX", player_mail(3))
        assert service.step() == 1
        assert servers.exchanges()[7:] == [
            "imap refused tok-2", "imap error answered with b''", "imap accepted tok-3",
            "smtp refused tok-2", "smtp error answered with b''", "smtp accepted tok-3"]
        assert len(servers.handler.delivered["anna@test.org"]) == 3
        assert judge.store.mail_count() == 3 and service.failures == []
    finally:
        service.mailbox.close()
        judge.store.close()


def test_a_token_refused_even_fresh_is_one_clear_error(tmp_path, provider):
    servers, _ = provider
    servers.token_file.write_text("the-provider-wants-another-app")
    cfg = load_config(write_config(tmp_path, servers))
    assert cfg.imap is not None and cfg.smtp is not None
    box = Mailbox(cfg.imap)
    with pytest.raises(MailServerError) as err:
        box.connect()
    text = str(err.value)
    assert text.startswith(f"IMAP server 127.0.0.1:{servers.imap_port}: XOAUTH2 login refused "
                           f"for user '{oauthservers.USER}'")
    assert "status 401" in text and "check imap.token_command" in text
    assert "tok-1" not in text and "tok-2" not in text  # a token is never shown
    mailer = Mailer(cfg.smtp, cfg.address, cfg.name, lambda: 0.0)
    store = Store(cfg.db_path)
    from mobadj.judge.store import Mail

    with store.transaction():
        store.queue(Mail("anna@test.org", "hello", "text"), 0.0)
    with pytest.raises(MailServerError, match="check smtp.token_command") as err:
        mailer.send_outbox(store)
    assert "tok-" not in str(err.value)
    assert len(store.unsent()) == 1  # the mail waits for a token that works
    store.close()


def test_serve_once_with_a_failing_token_command_is_one_line(tmp_path, provider):
    """A real subprocess of the CLI: the token command fails (its helper lost the refresh
    token); the GM sees the helper's own last words, never a traceback."""
    servers, _ = provider
    path = write_config(tmp_path, servers)
    data = yaml.safe_load(path.read_text())
    (tmp_path / "broken.py").write_text(
        "import sys\nprint('refresh token expired; run mutt_oauth2.py --authorize',"
        " file=sys.stderr)\nsys.exit(2)\n")
    data["imap"]["token_command"] = f"{sys.executable} broken.py"
    path.write_text(yaml.safe_dump(data))
    mobadj = Path(sys.executable).with_name("mobadj")
    r = subprocess.run([str(mobadj), "serve", "--config", str(path), "--once"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        f"Error: IMAP server 127.0.0.1:{servers.imap_port}: token command failed (refresh "
        "token expired; run mutt_oauth2.py --authorize)"], r.stderr


def test_the_token_command_on_its_own(tmp_path):
    (tmp_path / "token.py").write_text(TOKEN_SCRIPT)
    now = [0.0]
    tokens = TokenCommand(f"{sys.executable} token.py c", str(tmp_path), max_age=60,
                          clock=lambda: now[0])
    assert tokens.token() == "tok-1" and tokens.token() == "tok-1"  # kept in hand
    now[0] = 61.0
    assert tokens.token() == "tok-2"  # old: asked again
    assert tokens.refresh() == "tok-3" and tokens.runs == 3
    for command, message in [
        ("exit 3", "token command failed (exit status 3)"),
        ("echo", "printed no token"),
        ("echo two words", "printed no token"),
        (("/no/such/helper", "--token"), "token command not found: '/no/such/helper'"),
    ]:
        with pytest.raises(TokenError, match=message.replace("(", r"\(").replace(")", r"\)")):
            TokenCommand(command, str(tmp_path)).refresh()


@pytest.mark.parametrize("server, message", [
    ({"host": "h", "auth": "xoauth2", "user": "u@x.org"}, "needs the command"),
    ({"host": "h", "auth": "xoauth2", "token_command": "t"}, "needs the account's address"),
    ({"host": "h", "auth": "kerberos"}, "expected password or xoauth2"),
    ({"host": "h", "auth": "xoauth2", "user": "u", "token_command": {"a": 1}},
     "expected a command line or a list"),
])
def test_oauth_settings_are_checked(server, message):
    with pytest.raises(ConfigError, match=message):
        config_from_data({"judge": {"address": "j@x.org"}, "imap": server})


def test_the_example_config_shows_oauth():
    text = (Path(__file__).resolve().parents[2] / "judge.example.yaml").read_text()
    assert "auth: xoauth2" in text and "token_command:" in text
