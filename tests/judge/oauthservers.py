"""Mail servers that take OAuth2 access tokens (SASL XOAUTH2), for the tests.

IMAP: pymap itself (a real IMAP server: IDLE, UIDs ...), run by this file as a script with
XOAUTH2 turned on (pysasl has the mechanism; pymap offers PLAIN and LOGIN only).  A token is
accepted when it is the one in the file ``--token-file`` names (the provider's current
token).  A wrong token is refused as Gmail and Microsoft do: an error challenge (base64
JSON), answered by the client with an empty line, then a failure.  Every exchange is written
to ``--log-file`` (the mechanism, the token's verdict, the client's answer to the error).

SMTP: aiosmtpd with an ``auth_XOAUTH2`` hook on its handler (aiosmtpd's auth hooks), the same
rules, in a thread.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

JUDGE_ADDRESS = "judge@test.org"
USER = "judge@test.org"
ERROR = {"status": "401", "schemes": "bearer", "scope": "https://mail.example/"}


def _check(token_file: Path, raw: bytes) -> tuple[str, str] | None:
    """(user, token) of a well-formed XOAUTH2 response, or None."""
    try:
        text = raw.decode()
        user_part, auth_part, *rest = text.split("\x01")
    except (UnicodeDecodeError, ValueError):
        return None
    if rest != ["", ""] or not user_part.startswith("user=") or \
            not auth_part.startswith("auth=Bearer "):
        return None
    return user_part[5:], auth_part[len("auth=Bearer "):]


def current_token(token_file: Path) -> str:
    return token_file.read_text().strip()


def _record(log_file: Path, line: str) -> None:
    with log_file.open("a") as f:
        f.write(line + "\n")


# -- SMTP: aiosmtpd with an auth_XOAUTH2 hook ----------------------------------------------


class OAuthSMTPHandler:
    """Takes mail only after XOAUTH2 with the current token; keeps what it is given."""

    def __init__(self, token_file: Path, log_file: Path) -> None:
        self.token_file = token_file
        self.log_file = log_file
        self.delivered: dict[str, list[bytes]] = {}
        self.lock = threading.Lock()

    async def auth_XOAUTH2(self, server, args):  # noqa: N802 (aiosmtpd's hook name)
        if len(args) > 1:
            raw = base64.b64decode(args[1])
        else:
            raw = await server.challenge_auth("")
        found = _check(self.token_file, raw) if isinstance(raw, bytes) else None
        if found and found[0] == USER and found[1] == current_token(self.token_file):
            _record(self.log_file, f"smtp accepted {found[1]}")
            return AuthResult(success=True, auth_data=found[0])
        _record(self.log_file, f"smtp refused {found[1] if found else '(malformed)'}")
        answer = await server.challenge_auth(json.dumps(ERROR))
        _record(self.log_file, f"smtp error answered with {answer!r}")
        return AuthResult(success=False, handled=False)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        if not session.authenticated:
            return "530 5.7.0 Authentication required"
        data = envelope.original_content or envelope.content
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.delivered.setdefault(rcpt.lower(), []).append(bytes(data))
        return "250 OK"


# -- the servers for a test ----------------------------------------------------------------


@dataclass
class OAuthServers:
    """pymap with XOAUTH2 and aiosmtpd with XOAUTH2; ``token_file`` holds the token both
    accept, ``log_file`` what they saw."""

    token_file: Path
    log_file: Path
    imap_port: int
    smtp_port: int
    proc: subprocess.Popen
    controller: Controller
    handler: OAuthSMTPHandler
    demo_password: str = "not-the-token"
    _stopped: list[bool] = field(default_factory=list)

    def exchanges(self) -> list[str]:
        return self.log_file.read_text().splitlines() if self.log_file.exists() else []

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped.append(True)
        self.controller.stop()
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def start(tmp: Path, token: str) -> OAuthServers:
    from .servers import free_port, wait_for_port  # (this file also runs as a script)

    token_file, log_file = tmp / "provider-token", tmp / "provider.log"
    token_file.write_text(token)
    imap_port, smtp_port = free_port(), free_port()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--token-file", str(token_file), "--log-file",
         str(log_file), "--host", "127.0.0.1", "--port", str(imap_port), "dict",
         "--demo-user", USER, "--demo-password", "not-the-token"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    wait_for_port(proc, imap_port, "pymap (XOAUTH2)")
    handler = OAuthSMTPHandler(token_file, log_file)
    # AUTH offered without TLS (on 127.0.0.1, for the test); DATA refuses the unauthenticated
    controller = Controller(handler, hostname="127.0.0.1", port=smtp_port,
                            auth_require_tls=False)
    controller.start()
    return OAuthServers(token_file, log_file, imap_port, smtp_port, proc, controller, handler)


# -- pymap with XOAUTH2, when this file runs as a script -------------------------------------


def _run_pymap(token_file: Path, log_file: Path) -> None:
    from pymap.config import IMAPConfig
    from pymap.main import main
    from pysasl import SASLAuth
    from pysasl.creds.server import ServerCredentials
    from pysasl.exception import AuthenticationError
    from pysasl.mechanism import ServerChallenge, ServerMechanism

    class Bearer(ServerCredentials):
        """A checked token: the user it was issued to."""

        def __init__(self, user: str) -> None:
            super().__init__()
            self._user = user

        @property
        def authcid(self) -> str:
            return self._user

        @property
        def authzid(self) -> str:
            return self._user

        def verify(self, identity):  # the token was checked in the exchange
            return True

    class XOAuth2(ServerMechanism):
        def __init__(self) -> None:
            super().__init__(b"XOAUTH2")

        def server_attempt(self, responses):
            if not responses:
                raise ServerChallenge(b"")
            found = _check(token_file, responses[0].response)
            if found and found[1] == current_token(token_file):
                _record(log_file, f"imap accepted {found[1]}")
                return Bearer(found[0]), None
            if len(responses) == 1:
                _record(log_file, f"imap refused {found[1] if found else '(malformed)'}")
                raise ServerChallenge(json.dumps(ERROR).encode())
            _record(log_file, f"imap error answered with {responses[1].response!r}")
            raise AuthenticationError("Invalid credentials (Failure)")

    IMAPConfig.tls_auth = property(  # type: ignore[assignment, method-assign]
        lambda self: SASLAuth([XOAuth2(), *SASLAuth.defaults().server_mechanisms]))
    main()


if __name__ == "__main__":
    args = sys.argv[1:]
    paths = {}
    for key in ("--token-file", "--log-file"):
        i = args.index(key)
        paths[key] = Path(args[i + 1])
        del args[i:i + 2]
    sys.argv = [sys.argv[0], *args]
    _run_pymap(paths["--token-file"], paths["--log-file"])
