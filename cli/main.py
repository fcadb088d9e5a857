"""The ``kosolve`` command line: a thin click layer over :mod:`kosolve.deal`
and :mod:`kosolve.analysis`.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(cli, ["--version"]).output.startswith("kosolve ")
True
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any, Final

import click

from kosolve import __version__
from kosolve._score import ScoreSolver
from kosolve.analysis import Solution, new_solver, solve
from kosolve.cards import (
    DISPLAY_ORDER,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    TAROCK,
    Card,
    card_name,
    hand_names,
    points_of,
    thirds_of,
)
from kosolve.cli.options import json_option, quiet_option, tt_mb_option
from kosolve.deal import Deal, DealError, load_deal
from kosolve.feasibility import TRICK_GOALS, FeasibilityTable
from kosolve.feasibility import feasibility as solve_feasibility
from kosolve.game import SEATS, TRICKS_PER_GAME, Position, Rules, Seat, seat_name, trick_thirds
from kosolve.netscore import NetScore, net_score
from kosolve.postmortem import PostMortem
from kosolve.postmortem import postmortem as review_play
from kosolve.scoring import HELD, ScoringError, ScoringRules, Settlement, check_announcements, settle

PROGRESS_MIN_FILES: Final = 4
"""From this many files on, solving shows a progress bar."""

DEFAULT_COMMAND: Final = "solve"


class DealFileError(click.UsageError):
    """A deal file that cannot be used: exit status 2 like any bad input,
    shown as the one line that names the file and the field (the usage
    text would only hide it)."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.ClickException.show(self, file)


class DefaultCommandGroup(click.Group):
    """A group whose first argument may be a subcommand or, when it names
    none, the first argument of the default command: ``kosolve deal.json``
    is ``kosolve solve deal.json``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        group_options = [*ctx.help_option_names, "--version"]
        if args and args[0] not in self.commands and args[0] not in group_options:
            args = [DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[solve] [OPTIONS] DEAL.json...")
        formatter.write_usage(ctx.command_path, "bench [OPTIONS]", prefix="       ")


@click.group(
    cls=DefaultCommandGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "--version", prog_name="kosolve", message="%(prog)s %(version)s")
def cli() -> None:
    """Solve Kosakeln (two-player Tarock) positions exactly, double dummy:
    what best play by both sides yields for the declarer, the value of every
    card the player to move may play, and an optimal line to the end.

    A deal file is JSON (format version 1):

    \b
      {"version": 1, "contract": "dreiblatt", "declarer": "forehand",
       "hands": {"forehand": ["Sk", "XXI", ...], "dealer": ["HK", ...]},
       "piles": {"forehand": [...], "dealer": [...]},
       "leader": "forehand", "play": ["XIV", "XX", ...]}

    \b
    contract  dreiblatt, zweiblatt, einblatt or solo
    declarer  forehand or dealer
    hands     the cards each player holds when play starts: 16 each for a
              whole game, fewer (equal counts) for an ending
    piles     optional: the cards already counted for each player (discards,
              talon cards); with piles, hands and piles hold all 54 cards
              and the answer says whether the declarer wins
    leader    optional: who leads the first trick of these hands (forehand)
    play      optional: the cards played so far, in order

    Cards use the canonical names: Sk, XXI ... I, HK HQ HC HJ H1 H2 H3 H4,
    DK ... D4, SK SQ SC SJ S10 S9 S8 S7, CK ... C7.

    \b
    Examples:
      kosolve examples/whole-deal.json
      kosolve --at 6 --json examples/played.json
      kosolve solve -q examples/*.json
      kosolve bench --deals 20

    Solving is the default command; see 'kosolve solve -h' for its options.
    """


@dataclass(frozen=True)
class _Style:
    """How to draw suits and fractions: Unicode when the output can hold it."""

    unicode: bool

    def points(self, thirds: int) -> str:
        """Exact points of ``thirds``: ``35⅔`` (``35 2/3`` in ASCII)."""
        sign = "-" if thirds < 0 else ""
        whole, rest = divmod(abs(thirds), 3)
        if not rest:
            return f"{sign}{whole}"
        fraction = ("⅓", "⅔")[rest - 1] if self.unicode else ("1/3", "2/3")[rest - 1]
        if self.unicode:
            return f"{sign}{whole or ''}{fraction}"
        return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"

    def value(self, thirds: int) -> str:
        """``36 points (107 thirds = 35⅔)``: rounded, then exact."""
        exact = self.points(thirds)
        rounded = points_of(thirds)
        detail = f"{thirds} thirds" if exact == str(rounded) else f"{thirds} thirds = {exact}"
        return f"{rounded} points ({detail})"

    def suit(self, suit: int) -> str:
        if suit == TAROCK or not self.unicode:
            return SUIT_NAMES[suit]
        return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"

    @property
    def none(self) -> str:
        return "—" if self.unicode else "-"


def _style_for(stream: IO[str]) -> _Style:
    try:
        "♥♦♠♣⅓⅔—".encode(getattr(stream, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return _Style(unicode=False)
    return _Style(unicode=True)


def _columns(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """Rows of cells, each column padded to its widest cell."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(len(row) for row in rows))]
    return [indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]


@dataclass(frozen=True)
class _Trick:
    number: int
    leader: Seat
    cards: tuple[Card, ...]
    on_table: bool
    """Whether the first card lay on the table before these cards."""
    winner: Seat | None


def _tricks(position: Position, cards: Sequence[Card], first_trick: int) -> list[_Trick]:
    """``cards`` played on from ``position``, grouped into tricks."""
    position = position.copy()
    tricks = []
    current = list(position.trick)
    on_table = bool(current)
    for card in cards:
        if not position.trick:
            current, on_table = [], False
        leader = position.leader
        position.push(card)
        current.append(card)
        if not position.trick:
            number = first_trick + sum(position.tricks_won) - 1
            tricks.append(_Trick(number, leader, tuple(current), on_table, position.leader))
    if position.trick and current:
        tricks.append(_Trick(first_trick + sum(position.tricks_won), position.leader, tuple(current), on_table, None))
    return tricks


def _trick_lines(tricks: Sequence[_Trick], style: _Style) -> list[str]:
    rows = []
    for trick in tricks:
        row = [f"trick {trick.number}"]
        for index, card in enumerate(trick.cards):
            seat = trick.leader if index == 0 else 1 - trick.leader
            on_table = " (on the table)" if index == 0 and trick.on_table else ""
            row.append(f"{seat_name(seat)} {card_name(card)}{on_table}")
        if trick.winner is not None:
            row.append(f"{seat_name(trick.winner)} takes {style.points(trick_thirds(*trick.cards))}")
        rows.append(row)
    return _columns(rows)


def _hand_lines(deal: Deal, position: Position, style: _Style) -> list[str]:
    def role(seat: Seat) -> str:
        return f"{seat_name(seat)} (declarer)" if seat == deal.declarer else seat_name(seat)

    rows = [["", *(role(seat) for seat in SEATS)]]
    for suit in DISPLAY_ORDER:
        cells = [" ".join(hand_names(position.hands[seat] & SUIT_MASKS[suit])) or style.none for seat in SEATS]
        rows.append([style.suit(suit), *cells])
    if deal.piles is not None:
        cells = [
            f"{deal.piles[seat].bit_count()} cards, {style.points(thirds_of(deal.piles[seat]))} points"
            for seat in SEATS
        ]
        rows.append(["pile", *cells])
    return _columns(rows)


def _situation(deal: Deal, position: Position) -> str:
    trick = deal.first_trick + sum(position.tricks_won)
    if position.is_over():
        return "the hand is over"
    mover = seat_name(position.turn)
    if position.trick:
        return f"trick {trick} of {TRICKS_PER_GAME}, the {mover} to play on {card_name(position.trick[0])}"
    return f"trick {trick} of {TRICKS_PER_GAME}, the {mover} to lead"


def _move_lines(solution: Solution, style: _Style) -> list[str]:
    declaring = solution.to_move == solution.declarer

    def cost(thirds: int) -> int:
        return solution.thirds - thirds if declaring else thirds - solution.thirds

    order = hand_names(sum(1 << move.card for move in solution.moves))
    moves = sorted(solution.moves, key=lambda move: (cost(move.thirds), order.index(card_name(move.card))))
    rows = [["card", "points", "thirds", ""]]
    for move in moves:
        loss = cost(move.thirds)
        note = "best" if loss == 0 else f"costs the {seat_name(solution.to_move)} {style.points(loss)}"
        rows.append([card_name(move.card), style.points(move.thirds), str(move.thirds), note])
    return _columns(rows, indent="    ")


def _result_text(solution: Solution) -> str:
    if solution.win_thirds is None:
        return "tricks only, no piles given"
    return f"{solution.result} ({solution.win_thirds} thirds needed)"


def _feasibility_lines(table: FeasibilityTable, style: _Style) -> list[str]:
    rows = [["", *(seat_name(seat) for seat in SEATS)]]
    for goal in table.goals():
        cells = []
        for seat in SEATS:
            try:
                cells.append("yes" if table.feasible(seat, goal) else "no")
            except KeyError:
                cells.append(style.none)
        label = goal.replace("_", " ") + (" (held)" if goal in HELD else "")
        rows.append([label, *cells])
    lines = _columns(rows)
    for row in table.rows:
        if row.feasible and row.goal in TRICK_GOALS:
            cards = " ".join(card_name(c) for c in row.line)
            lines.append(f"  {row.goal} by the {seat_name(row.seat)}, whatever the other does: {cards}")
    return lines


def _postmortem_lines(review: PostMortem, style: _Style) -> list[str]:
    by_score = any(card.net_loss is not None for card in review.cards)
    rows = [["trick", "player", "card", "before", "after", "loss", *(["score loss"] if by_score else []), "better"]]
    for card in review.cards:
        net = [f"{card.net_loss:+d}" if card.net_loss else ""] if by_score else []
        rows.append(
            [
                str(card.trick),
                seat_name(card.player),
                card_name(card.card),
                style.points(card.before),
                style.points(card.after),
                style.points(card.loss) if card.loss else "",
                *net,
                " ".join(card_name(c) for c in card.best),
            ]
        )
    lines = _columns(rows)
    losses = ", ".join(
        f"the {seat_name(seat)} {style.points(loss)}" for seat, loss in zip(SEATS, review.total_loss, strict=True)
    )
    lines.append(f"  points given away: {losses}")
    if review.total_net_loss is not None:
        given = zip(SEATS, review.total_net_loss, strict=True)
        lines.append(
            "  game points given away: " + ", ".join(f"the {seat_name(seat)} {loss:+d}" for seat, loss in given)
        )
    for card in review.costliest():
        lines.append(
            f"  costliest: trick {card.trick}, the {seat_name(card.player)}'s {card_name(card.card)}"
            f" cost {style.points(card.loss)} (better: {' '.join(card_name(c) for c in card.best)})"
        )
    for goal in review.goals:
        if goal.lost_at is not None:
            where = f"lost with card {goal.lost_at + 1} ({card_name(review.cards[goal.lost_at].card)})"
        else:
            where = "makeable to the end" if goal.makeable_at_start else "never makeable"
        lines.append(f"  {goal.goal.replace('_', ' ')} by the {seat_name(goal.seat)}: {where}")
    return lines


def _report(
    file: str,
    deal: Deal,
    at: int | None,
    solution: Solution,
    style: _Style,
    table: FeasibilityTable | None,
    review: PostMortem | None,
    net: NetScore | None = None,
) -> str:
    position = deal.position(at)
    played = deal.play[:at]
    lines = [file, f"  {deal.contract}, declarer {seat_name(deal.declarer)}; {_situation(deal, position)}"]
    lines += _hand_lines(deal, position, style)
    if played:
        unplayed = len(deal.play) - len(played)
        more = f" ({unplayed} more in the file, left out by --at)" if unplayed else ""
        cards = "1 card" if len(played) == 1 else f"{len(played)} cards"
        lines += ["", f"Played, {cards}{more}:"]
        lines += _trick_lines(_tricks(deal.position(0), played, deal.first_trick), style)
        so_far = position.declarer_thirds()
        lines.append(f"  the declarer has {style.points(so_far)} points ({so_far} thirds) so far")
    lines += ["", f"Value: {style.value(solution.thirds)} for the declarer: {_result_text(solution)}"]
    if solution.moves:
        lines += [f"  the declarer's points after each card of the {seat_name(solution.to_move)}, to move:"]
        lines += _move_lines(solution, style)
    if solution.line:
        lines += ["Optimal line:", *_trick_lines(_tricks(position, solution.line, deal.first_trick), style)]
    if net is not None:
        lines += ["", f"Net game points for the declarer, played for the score: {net.score:+d}"]
        if net.points_line_score is not None and net.points_line_score != net.score:
            lines.append(f"  (the line played for points above gives him {net.points_line_score:+d})")
        if net.line:
            lines += ["Line played for the score:", *_trick_lines(_tricks(position, net.line, deal.first_trick), style)]
    if table is not None:
        lines += ["", "Makeable with best play from here (double dummy):", *_feasibility_lines(table, style)]
    if review is not None:
        lines += ["", "Post-mortem of the play (the declarer's points with best play before and after each card):"]
        lines += _postmortem_lines(review, style)
    stats = solution.stats
    lines.append(
        f"Search: {stats.nodes:,} nodes in {stats.ms:.1f} ms; table: {stats.tt_hits:,} hits of"
        f" {stats.tt_probes:,} probes, {stats.tt_stores:,} stores in {stats.tt_entries:,} slots"
    )
    return "\n".join(lines)


def _settlement(file: str, deal: Deal, at: int | None, rules: ScoringRules) -> Settlement | None:
    """The settlement of a whole game played to the end; None otherwise.
    Announcements the rule options forbid are bad input."""
    try:
        check_announcements(deal, rules)
    except ScoringError as error:
        raise DealFileError(f"{file}: {error}") from None
    if deal.first_trick != 1 or deal.piles is None or not deal.position(at).is_over():
        return None
    return settle(deal, rules)


@dataclass(frozen=True)
class _Job:
    file: str
    deal: Deal
    at: int | None
    settlement: Settlement | None


def _load_jobs(files: Sequence[str], at: int | None, rules: ScoringRules) -> list[_Job]:
    """Every file read and checked before anything is solved or printed."""
    jobs = []
    for file in files:
        try:
            deal = load_deal(file)
        except DealError as error:
            raise DealFileError(str(error)) from None
        if at is not None and at > len(deal.play):
            raise click.BadParameter(
                f"{at} is beyond the play of {file}, which has {len(deal.play)} cards", param_hint="'--at'"
            )
        jobs.append(_Job(file, deal, at, _settlement(file, deal, at, rules)))
    return jobs


def _progress_wanted(count: int, quiet: bool) -> bool:
    # A bar redrawn on a terminal would be torn by results printed to the
    # same terminal, so it only shows while stdout goes elsewhere.
    return not quiet and count >= PROGRESS_MIN_FILES and not click.get_text_stream("stdout").isatty()


@cli.command("solve", short_help="Solve deal files (the default command).")
@click.argument("files", metavar="DEAL.json...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--at",
    type=click.IntRange(min=0),
    metavar="N",
    help="Solve the position after the first N cards of the play instead of after all of it.",
)
@json_option
@tt_mb_option
@quiet_option("Print only the value, one line a file, and no progress bar.")
@click.option(
    "--win-thirds",
    type=click.Choice(["107", "106"]),
    default=str(Rules().win_thirds),
    show_default=True,
    help="Thirds the declarer needs to win: 107 (36 points) or 106 (35⅓ points accepted).",
)
@click.option(
    "--feasibility/--no-feasibility",
    default=True,
    show_default=True,
    help="Say which birds, Valat and point targets each player can still force.",
)
@click.option(
    "--postmortem/--no-postmortem",
    default=True,
    show_default=True,
    help="Go through the play card by card: what each card cost and what was better.",
)
@click.option(
    "--silent-bird-penalty",
    is_flag=True,
    help="Rule option: a silent bird played in its trick and beaten costs its silent value.",
)
@click.option(
    "--defender-announcements",
    is_flag=True,
    help="Rule option: the defender may announce a bird or the Valat.",
)
@click.option("--kontra", is_flag=True, help="Rule option: a Kontra on an announcement doubles it.")
@click.option(
    "--score/--no-score",
    default=None,
    help="Solve for the net game points too (the declarer maximising his score, the defender minimising it), and"
    " judge every card of the post-mortem by them; a search of its own per position, so slower. By default on when"
    " the file has announcements.",
)
def solve_command(
    files: tuple[str, ...],
    at: int | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    win_thirds: str,
    feasibility: bool,
    postmortem: bool,
    silent_bird_penalty: bool,
    defender_announcements: bool,
    kontra: bool,
    score: bool | None,
) -> None:
    """Solve each DEAL.json: the position after its play (or after the first
    N cards with --at), with best play by both sides.

    Prints the hands, the declarer's value in points and thirds, whether he
    wins (when the piles are given), the value of every card of the player
    to move, an optimal line, which announcements each player can still
    make, a post-mortem of the play so far and the search statistics.  One
    table is shared by all files; it speeds up solving but never changes an
    answer.

    \b
    Examples:
      kosolve examples/ending.json
      kosolve --at 4 examples/played.json
      kosolve --json examples/*.json > values.jsonl
    """
    rules = Rules(win_thirds=int(win_thirds))
    scoring = ScoringRules(
        game=rules,
        silent_bird_penalty=silent_bird_penalty,
        defender_announcements=defender_announcements,
        kontra=kontra,
    )
    jobs = _load_jobs(files, at, scoring)
    try:
        solver = new_solver(tt_mb)
    except (MemoryError, ValueError, OverflowError) as error:
        raise click.ClickException(f"cannot set up a table of {tt_mb} MB: {error or 'out of memory'}") from None
    full = as_json or not quiet
    # The score search has a table of its own, made when a file first needs it.
    score_solvers: list[ScoreSolver] = []

    def score_solver() -> ScoreSolver:
        if not score_solvers:
            score_solvers.append(ScoreSolver())
        return score_solvers[0]

    stdout = click.get_text_stream("stdout")
    style = _style_for(stdout)

    def run(job: _Job) -> None:
        position = job.deal.position(job.at)
        solution = solve(position, solver=solver, rules=rules, with_moves=full, with_line=full)
        table = solve_feasibility(position, solver=solver, rules=rules) if full and feasibility else None
        played = job.deal.play[: job.at]
        by_score = full and job.deal.first_trick == 1 and job.deal.piles is not None
        by_score = by_score and (score if score is not None else bool(job.deal.announcements))
        net = net_score(job.deal, position, rules=scoring, solver=score_solver()) if by_score else None
        review = None
        if full and postmortem and played:
            # Point goals need the piles to be judged; trick goals never do.
            goals = tuple(
                (a.by, a.what) for a in job.deal.announcements if a.what in TRICK_GOALS or job.deal.piles is not None
            )
            review = review_play(
                replace(job.deal, play=played),
                goals=goals,
                solver=solver,
                rules=rules,
                scoring=scoring if by_score else None,
            )
        settlement = job.settlement if full else None
        if as_json:
            data = {"file": job.file, "contract": job.deal.contract, **solution.to_json()}
            if table is not None:
                data["feasible"] = table.to_json()
                data["feasible_lines"] = table.lines_json()
            if review is not None:
                data.update(review.to_json())
            if settlement is not None:
                data["settlement"] = settlement.to_json()
            if net is not None:
                data["net_score"] = net.to_json()
            click.echo(json.dumps(data))
        elif quiet:
            result = f", {solution.result}" if solution.result else ""
            click.echo(f"{job.file}: {style.value(solution.thirds)}{result}")
        else:
            separator = "\n" if job is not jobs[0] else ""
            report = _report(job.file, job.deal, job.at, solution, style, table, review, net)
            if settlement is not None:
                report += "\n\nSettlement of the played hand:\n" + settlement.format()
            click.echo(separator + report)

    if _progress_wanted(len(jobs), quiet):
        with click.progressbar(jobs, label="solving", file=sys.stderr) as bar:
            for job in bar:
                run(job)
    else:
        for job in jobs:
            run(job)


@cli.command("bench", short_help="Time the solver on dealt positions.")
@click.option("--deals", type=click.IntRange(min=0), help="Whole deals to solve (default: the standard run).")
@click.option("--seed", type=int, help="Seed of the dealing; the same seed deals the same positions.")
@click.option("--endings", type=click.IntRange(min=0), help="Endings to time against the pure-Python reference.")
@click.option("--ending-tricks", type=click.IntRange(1, TRICKS_PER_GAME), help="Tricks in each ending.")
@click.option("--postmortems", type=click.IntRange(min=0), help="Whole plays to review card by card.")
@click.option("--goals/--no-goals", default=True, help="Time the feasibility of birds and Valat on the whole deals.")
@click.option(
    "--repeat",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Solve the whole deals this many times; each deal's fastest time counts.",
)
@tt_mb_option
@json_option
@quiet_option("No progress bar.")
def bench_command(
    deals: int | None,
    seed: int | None,
    endings: int | None,
    ending_tricks: int | None,
    postmortems: int | None,
    goals: bool,
    repeat: int,
    tt_mb: float,
    as_json: bool,
    quiet: bool,
) -> None:
    """Time the solver on realistic positions: whole deals dealt by the
    rules (shuffle, discard, talon exchange) from a fixed seed, the
    feasibility of birds and Valat on them, post-mortems of whole plays, and
    short endings checked against the pure-Python reference.

    \b
    Examples:
      kosolve bench
      kosolve bench --deals 20 --endings 5 --json
      kosolve bench --repeat 3   # on a busy machine
    """
    from kosolve.bench import run_bench

    given = {
        "deals": deals,
        "seed": seed,
        "endings": endings,
        "ending_tricks": ending_tricks,
        "postmortems": postmortems,
    }
    options: dict[str, Any] = {name: value for name, value in given.items() if value is not None}

    def bench(progress: Callable[[int, int], None] | None) -> Any:
        try:
            return run_bench(tt_mb=tt_mb, goals=goals, repeat=repeat, progress=progress, **options)
        except (MemoryError, ValueError) as error:
            raise click.ClickException(f"the benchmark failed: {error or 'out of memory'}") from None

    if quiet:
        report = bench(None)
    else:
        with click.progressbar(length=1, label="benchmark", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                # The total follows from run_bench's defaults, known only to it.
                bar.length = total
                bar.update(done - bar.pos)

            report = bench(progress)
    click.echo(json.dumps(report.to_json()) if as_json else report.format())


def main(argv: Sequence[str] | None = None) -> None:
    """The ``kosolve`` console script."""
    cli.main(args=list(argv) if argv is not None else None, prog_name="kosolve")
