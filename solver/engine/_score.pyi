# Type stub of the compiled score-optimal search (solver/engine/_score.pyx).

from kosolve.engine._search import Solver

SCORE_TT_MB: float
STEPS: int
BIRD_BITS: int
BIRD_STATES: int
VALAT_STATES: int
LEAVES: int
BIRD_OPEN: int
BIRD_WON: int
BIRD_BEATEN: int
VALAT_DECLARER: int
VALAT_DEFENDER: int

def leaf_index(steps: int, birds: int, valat: int) -> int: ...

class ScoreSolver:
    tt_mb: float
    points: Solver | None
    def __init__(self, tt_mb: float = ..., points: Solver | None = ...) -> None: ...
    def solve(
        self,
        forehand: int,
        dealer: int,
        leader: int,
        declarer: int,
        led: int,
        steps: list[int],
        birds: int,
        valat: int,
        leaf: list[int],
        *,
        with_line: bool = ...,
        framed: bool = ...,
    ) -> tuple[int, list[int]]: ...
    def at_least(
        self,
        forehand: int,
        dealer: int,
        leader: int,
        declarer: int,
        led: int,
        steps: list[int],
        birds: int,
        valat: int,
        leaf: list[int],
        *,
        score: int,
        framed: bool = ...,
    ) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def stats(self) -> dict[str, int]: ...
