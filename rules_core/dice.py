"""Where the game's randomness comes from.

Every roll in rules_core goes through a :class:`Dice` object, so a battle can be replayed from a
seed (:class:`SeededDice`) and a rule can be tested with the exact rolls a scenario needs
(:class:`RiggedDice`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable


@runtime_checkable
class Dice(Protocol):
    """A source of die rolls. ``roll(sides)`` is the one primitive; the rest are named for the
    rules that use them."""

    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces: 1..sides."""
        ...

    def d6(self) -> int: ...

    def d3(self) -> int: ...

    def d12(self) -> int: ...

    def two_d6(self) -> int: ...

    def nd6(self, n: int) -> list[int]: ...


class _DiceMixin:
    """The named rolls, built on ``roll``."""

    def roll(self, sides: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def d6(self) -> int:
        return self.roll(6)

    def d3(self) -> int:
        return self.roll(3)

    def d12(self) -> int:
        return self.roll(12)

    def two_d6(self) -> int:
        """The sum of two d6 (command checks, critical and catastrophic tables)."""
        return self.d6() + self.d6()

    def nd6(self, n: int) -> list[int]:
        """``n`` separate d6, in the order rolled."""
        if n < 0:
            raise ValueError(f"cannot roll {n} dice")
        return [self.d6() for _ in range(n)]

    def count_at_least(self, n: int, score: int) -> int:
        """How many of ``n`` d6, rolled one after another, score ``score`` or more (to-hit rolls
        and saves)."""
        return sum(1 for _ in range(n) if self.d6() >= score)

    def sum_d6(self, n: int) -> int:
        """The total of ``n`` d6 (``4d6`` cm of All Ahead Full, ``3d6`` cm explosion radius)."""
        return sum(self.nd6(n))


class SeededDice(_DiceMixin):
    """Pseudo-random dice from a seed: the same seed gives the same rolls in every process."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = random.Random(_stable_seed(seed) if seed is not None else None)

    @classmethod
    def for_battle(cls, seed: int | str, index: int) -> SeededDice:
        """The dice of battle ``index`` of a run seeded with ``seed``.

        Derived by SHA-256 from ``(seed, index)``, never from ``hash()``, so a battle's rolls do
        not depend on which worker process plays it or on PYTHONHASHSEED.
        """
        return cls(f"battle:{seed}:{index}")

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return self._random.randint(1, sides)

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


def _stable_seed(seed: int | str) -> int:
    digest = hashlib.sha256(f"void-command:{seed}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


class DiceExhausted(AssertionError):
    """A rigged scenario asked for more rolls than it was given."""


class RiggedDice(_DiceMixin):
    """Dice that return the given values in order, for tests.

    Each value is one die: ``two_d6()`` takes two values, ``d3()`` takes one value 1..3,
    ``roll(n)`` one value 1..n. Asking for more rolls than were given raises
    :class:`DiceExhausted`; a value that the die cannot show raises ``ValueError``.
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0
        self.log: list[tuple[int, int]] = []  # (sides, value) of every roll taken

    def roll(self, sides: int) -> int:
        if self._next >= len(self._values):
            raise DiceExhausted(
                f"rigged dice exhausted after {len(self._values)} rolls (wanted a d{sides})"
            )
        value = self._values[self._next]
        if not 1 <= value <= sides:
            raise ValueError(f"rigged roll #{self._next + 1} is {value}, but a d{sides} was rolled")
        self._next += 1
        self.log.append((sides, value))
        return value

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def assert_used_up(self) -> None:
        """Fail if a scenario left rolls unused (it resolved differently than written)."""
        if self.remaining:
            raise AssertionError(
                f"{self.remaining} rigged roll(s) left unused: {self._values[self._next :]}"
            )
