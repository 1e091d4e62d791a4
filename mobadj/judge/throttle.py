"""Password guesses, slowed down without ever locking the right password out.

Every wrong password is written to the store (its ``auth_failures``), once against the
address it came from and once against the seat it was tried for (unless it came from the
seat's own player's address: a player's typos are theirs alone).  The rules:

- an address may give ``free`` wrong passwords (3) in a day; after that it must wait 1, 2,
  4 ... minutes after its last wrong one (at most a day) before a password from it is
  checked again.  A try during the wait is refused unchecked and told when it may try again
  (it does not lengthen the wait: a person who tries too early is not punished for it);
- a seat that has had ``free`` wrong passwords in a day from other addresses than its
  player's is *under attack*: while it is, every other address gets one free wrong try for
  it instead of three, so guessing from many addresses stays slow;
- a right password from an address that is not waiting always passes, however many wrong
  ones the seat has seen: strangers guessing at a seat cannot lock its player out;
- the seat's player is told at the registered address, at most once an hour, how many
  wrong passwords were tried for the seat (:meth:`PasswordThrottle.notice`); those tried
  after a notice are told an hour after it, even when no more come
  (:meth:`PasswordThrottle.untold`).

The judge's sign-on uses it; so can any other front end that asks for a seat's password
(a web sign-in form), with the same store: the counts are shared.
"""

from __future__ import annotations

from typing import Protocol

MINUTE = 60.0
DAY = 86400.0
FREE_FAILURES = 3
NOTICE_EVERY = 3600.0


class FailureStore(Protocol):
    """What the throttle needs of the judge's store."""

    def add_auth_failure(self, key: str, at: float) -> None: ...
    def auth_failures(self, key: str, since: float) -> int: ...
    def last_auth_failure(self, key: str) -> float | None: ...
    def auth_failure_keys(self, prefix: str, since: float) -> list[str]: ...


class PasswordThrottle:
    """The rules above, over a store's failure records."""

    def __init__(self, store: FailureStore, free: int = FREE_FAILURES, window: float = DAY,
                 longest: float = DAY) -> None:
        self.store = store
        self.free = free
        self.window = window
        self.longest = longest

    def under_attack(self, seat: str, now: float) -> bool:
        """Has ``seat`` (``game:POWER``) had ``free`` wrong passwords from strangers today?"""
        return self.store.auth_failures(f"seat:{seat}", now - self.window) >= self.free

    def wait(self, address: str, seat: str, own: bool, now: float) -> float:
        """Seconds ``address`` must still wait before its password for ``seat`` is checked
        (0: now).  ``own``: it is the seat's player's registered address."""
        key = f"from:{address}"
        fails = self.store.auth_failures(key, now - self.window)
        free = self.free if own or not self.under_attack(seat, now) else 1
        if fails < free:
            return 0.0
        last = self.store.last_auth_failure(key)
        pause = min(2.0 ** (fails - free) * MINUTE, self.longest)
        return 0.0 if last is None else max(0.0, last + pause - now)

    def failed(self, address: str, seat: str, own: bool, now: float) -> None:
        """Record a wrong password from ``address`` for ``seat``."""
        self.store.add_auth_failure(f"from:{address}", now)
        if not own:
            self.store.add_auth_failure(f"seat:{seat}", now)

    def untold(self, now: float) -> list[str]:
        """The seats (``game:POWER``) whose player was told of wrong passwords an hour ago
        or more and has had more since: they are told now, even when no more come (else
        the count of the last notice, sent at the first of them, would stand for all)."""
        out = []
        for key in self.store.auth_failure_keys("seat:", now - self.window):
            seat = key[len("seat:"):]
            told = self.store.last_auth_failure(f"told:{seat}")
            last = self.store.last_auth_failure(key)
            if (told is not None and last is not None and last > told
                    and now - told >= NOTICE_EVERY):
                out.append(seat)
        return out

    def notice(self, seat: str, now: float) -> tuple[int, float] | None:
        """When the seat's player is to be told of wrong passwords now: (how many since
        the last notice, since when); None when they were told less than an hour ago or
        there is nothing new.  A notice returned is recorded as given."""
        told = f"told:{seat}"
        last = self.store.last_auth_failure(told)
        if last is not None and now - last < NOTICE_EVERY:
            return None
        since = max(last + 1e-6 if last is not None else 0.0, now - self.window)
        count = self.store.auth_failures(f"seat:{seat}", since)
        if not count:
            return None
        self.store.add_auth_failure(told, now)
        return count, since
