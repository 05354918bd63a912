"""The simulator's public values: options, one battle's result, its log lines, its error.

These are the contract with the preview page (``fleetbuilder.simulator``) and the command line;
names and shapes here change only with both.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

SCORINGS = ("core", "faq")
TERRAINS = ("none", "section13", "void", "voidscape")
TABLES = ("patrol", "skirmish", "battle", "armada")
MOVEMENTS = ("standard", "advanced")  # "advanced": seed 003's vector movement (R-140)
ASTEROIDS = ("still", "moving")  # "moving": seed 003's asteroids in motion (R-147)
MAX_ROUNDS_LIMIT = 50
# The policies by name, which SimOptions checks: rules_core.sim.policy.POLICIES is this same
# dict, typed there. The policy module registers its own on import; the package imports it, so
# any import of rules_core.sim fills this before a SimOptions can be made. The dict lives here
# because the options sit below the policy (docs/simulator.md, module map).
POLICY_REGISTRY: dict[str, type[object]] = {}


class SimError(ValueError):
    """A fleet the simulator cannot play (unknown ship, empty fleet …); the message is meant for
    a player."""


@dataclass(frozen=True)
class SimOptions:
    """Scenario options of a run. ``table`` None plays on the table of fleet A's game size."""

    max_rounds: int = 10
    scoring: str = "core"  # "core" (seed 000 §14) or "faq" (seed 002's scoring, R-13)
    # "none" | "section13" | "void" (seed 001's void elements) | "voidscape" (both, R-136)
    terrain: str = "none"
    table: str | None = None  # "patrol" | "skirmish" | "battle" | "armada"
    policy_a: str = "standard"  # names in POLICY_REGISTRY (rules_core.sim.policy.POLICIES)
    policy_b: str = "standard"
    movement: str = "standard"  # "standard" (seed 000 §5) | "advanced" (seed 003, R-140)
    asteroids: str = "still"  # "still" | "moving" (seed 003's optional rule, advanced only)

    def __post_init__(self) -> None:
        if (
            not isinstance(self.max_rounds, int)
            or isinstance(self.max_rounds, bool)
            or not 1 <= self.max_rounds <= MAX_ROUNDS_LIMIT
        ):
            raise ValueError(f"max_rounds must be a whole number from 1 to {MAX_ROUNDS_LIMIT}")
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}")
        if self.terrain not in TERRAINS:
            raise ValueError(f"terrain must be one of {', '.join(TERRAINS)}")
        if self.movement not in MOVEMENTS:
            raise ValueError(f"movement must be one of {', '.join(MOVEMENTS)}")
        if self.asteroids not in ASTEROIDS:
            raise ValueError(f"asteroids must be one of {', '.join(ASTEROIDS)}")
        if self.asteroids == "moving" and self.movement != "advanced":
            raise ValueError("moving asteroids are seed 003's: they need advanced movement")
        if self.table is not None and self.table not in TABLES:
            raise ValueError(f"table must be one of {', '.join(TABLES)} (or null)")
        for name in (self.policy_a, self.policy_b):
            if name not in POLICY_REGISTRY:
                raise ValueError(
                    f"unknown policy {name!r}; known: {', '.join(sorted(POLICY_REGISTRY))}"
                )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if data["movement"] == "standard":
            # Standard movement is left out, so options stored before the advanced module
            # and their cache keys read the same.
            del data["movement"]
        if data["asteroids"] == "still":
            del data["asteroids"]  # likewise from before moving asteroids
        return data

    @classmethod
    def from_dict(cls, data: Any) -> SimOptions:
        """The inverse of :meth:`to_dict`; missing keys take their defaults. Raises ValueError
        on anything else (unknown keys, wrong types, values out of range)."""
        if not isinstance(data, dict):
            raise ValueError("simulator options must be an object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown simulator option(s): {', '.join(map(str, unknown))}")
        for key in ("scoring", "terrain", "policy_a", "policy_b", "movement", "asteroids"):
            if key in data and not isinstance(data[key], str):
                raise ValueError(f"{key} must be a string")
        if "table" in data and data["table"] is not None and not isinstance(data["table"], str):
            raise ValueError("table must be a string or null")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a battle's log, for a player to read."""

    round: int
    phase: str  # "setup" | "drift" | "command" | "activation" | "end" | "result"
    side: str | None  # "a" | "b" | None for both / neither
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "phase": self.phase, "side": self.side, "text": self.text}


FATES = ("destroyed", "crippled", "disengaged", "intact")


@dataclass
class BattleResult:
    winner: str | None  # "a" | "b" | None (a draw)
    rounds: int
    vp: dict[str, int]  # {"a": .., "b": ..}: victory points each side scored
    fates: list[dict[str, Any]]  # [{"side","unit","index","ship","name","unit_name","fate"}]
    log: list[LogEntry] | None = None
    ended_by: str = "time"  # "time" (R-15) | "annihilation"
    first_player: list[str] = field(default_factory=list)  # who activated first, each round

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "rounds": self.rounds,
            "vp": dict(self.vp),
            "ended_by": self.ended_by,
            "fates": [dict(f) for f in self.fates],
            "log": None if self.log is None else [e.to_dict() for e in self.log],
        }
