# Type stub of the compiled search (solver/_search.pyx).

DEFAULT_TT_MB: float
GOAL_TT_MB: float
VALAT: int
BIRD: int
MAX_SEARCH_THREADS: int

class Solver:
    tt_mb: float
    goal_tt_mb: float
    threads: int
    threads_from_cards: int
    def __init__(self, tt_mb: float = ..., goal_tt_mb: float | None = ..., threads: int = ...) -> None: ...
    def clear(self) -> None: ...
    def value(
        self, forehand: int, dealer: int, leader: int, declarer: int, led: int = ..., guess: int = ...
    ) -> int: ...
    def keeping_cards(
        self, forehand: int, dealer: int, leader: int, declarer: int, led: int = ..., *, value: int
    ) -> list[int]: ...
    def move_values(
        self, forehand: int, dealer: int, leader: int, declarer: int, led: int = ...
    ) -> list[tuple[int, int]]: ...
    def line(self, forehand: int, dealer: int, leader: int, declarer: int, led: int = ...) -> list[int]: ...
    def reaches(self, forehand: int, dealer: int, leader: int, declarer: int, led: int = ..., *, need: int) -> bool: ...
    def goal_feasible(
        self,
        forehand: int,
        dealer: int,
        leader: int,
        owner: int,
        led: int = ...,
        *,
        goal: int,
        bird: int = ...,
        trick: int = ...,
        need: int = ...,
    ) -> bool: ...
    def goal_line(
        self,
        forehand: int,
        dealer: int,
        leader: int,
        owner: int,
        led: int = ...,
        *,
        goal: int,
        bird: int = ...,
        trick: int = ...,
        need: int = ...,
    ) -> tuple[bool, list[int]]: ...
    @property
    def stats(self) -> dict[str, int]: ...
