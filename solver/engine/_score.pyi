# Type stub of the compiled score-optimal search (solver/_score.pyx).

class ScoreSolver:
    tt_mb: float
    def __init__(self, tt_mb: float = ...) -> None: ...
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
    ) -> tuple[int, list[int]]: ...
    @property
    def nodes(self) -> int: ...
