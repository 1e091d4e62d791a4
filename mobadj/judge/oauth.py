"""OAuth2 for the mail servers (SASL XOAUTH2, as Microsoft 365, Outlook.com and Gmail take
it), beside passwords.

The judge does not speak OAuth2 to the provider itself: as mail tools do (mutt's
``mutt_oauth2.py``, msmtp's ``passwordeval``, mbsync's ``PassCmd``), it runs a command the GM
configures (``token_command``) that prints a fresh access token, the command keeping the
refresh token and asking the provider for new access tokens.  The judge keeps the token in
memory for ``TOKEN_MAX_AGE`` (access tokens live an hour), and runs the command again at
once when a server refuses the token: a refused, then refreshed token costs one retry, not a
back-off.  The token is never logged, stored nor shown.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import time
from collections.abc import Callable

from mobadj.errors import JudgeServiceError

log = logging.getLogger("mobadj.judge.oauth")
TOKEN_MAX_AGE = 45 * 60.0  # seconds a token is used before the command is asked again
COMMAND_TIMEOUT = 120.0  # a helper may refresh over the network first


class TokenError(JudgeServiceError, RuntimeError):
    """The token command cannot give a token; the message says why (never the token)."""


def xoauth2_string(user: str, token: str) -> bytes:
    """The SASL XOAUTH2 initial response (before base64): ``user=..^Aauth=Bearer ..^A^A``."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01".encode()


def server_error(challenge: bytes) -> str:
    """The provider's reason in an XOAUTH2 error challenge (decoded from base64: JSON, e.g.
    ``{"status":"401","schemes":"bearer","scope":"..."}``), as one short line."""
    try:
        data = json.loads(challenge)
    except ValueError:
        return challenge.decode("utf-8", "replace")[:200]
    if isinstance(data, dict):
        return ", ".join(f"{k} {v}" for k, v in data.items())[:200]
    return str(data)[:200]


class TokenCommand:
    """The access tokens of one server, from its ``token_command``."""

    def __init__(self, command: str | tuple[str, ...], cwd: str = ".",
                 max_age: float = TOKEN_MAX_AGE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.command = command
        self.cwd = cwd
        self.max_age = max_age
        self.clock = clock
        self._token: str | None = None
        self._at = 0.0
        self.runs = 0  # how often the command ran (the log and the tests)

    def token(self) -> str:
        """The token in hand, or a new one when there is none or it is old."""
        if self._token is None or self.clock() - self._at > self.max_age:
            return self.refresh()
        return self._token

    def refresh(self) -> str:
        """Run the command for a fresh token (the server refused the one in hand)."""
        self._token = None
        shell = isinstance(self.command, str)
        words = self.command if isinstance(self.command, str) else list(self.command)
        try:
            done = subprocess.run(words, shell=shell, cwd=self.cwd, capture_output=True,
                                  timeout=COMMAND_TIMEOUT, stdin=subprocess.DEVNULL,
                                  env=dict(os.environ))
        except FileNotFoundError:
            raise TokenError(f"token command not found: {_name(self.command)!r}") from None
        except subprocess.TimeoutExpired:
            raise TokenError(f"token command gave no token within {COMMAND_TIMEOUT:g} s"
                             ) from None
        except OSError as exc:
            raise TokenError(f"token command cannot run ({exc.strerror})") from None
        self.runs += 1
        if done.returncode != 0:
            why = _last_line(done.stderr) or f"exit status {done.returncode}"
            raise TokenError(f"token command failed ({why})")
        lines = [line.strip() for line in done.stdout.decode("utf-8", "replace").splitlines()]
        token = next((line for line in lines if line), "")
        if not token or any(c.isspace() or not c.isprintable() for c in token):
            raise TokenError("token command printed no token (one line, the access token, "
                             "was expected)")
        log.info("new access token from the token command (run %d)", self.runs)
        self._token, self._at = token, self.clock()
        return token


def _name(command: str | tuple[str, ...]) -> str:
    if isinstance(command, str):
        return command.split()[0] if command.split() else command
    return command[0] if command else ""


def _last_line(data: bytes) -> str:
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1][:200] if lines else ""
