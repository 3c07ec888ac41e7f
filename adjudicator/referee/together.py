"""Several plays, or several games, whose calls into the engine are worked out together.

`play_responses` answers several plays of one table ("what would each of my cards do?"), each
with the answer `moves.play_response` gives it alone; `run_together` runs any tasks of one game
so (the simulator's games: simulate.py). The tasks run in a round (rounds.py): each runs as it
runs alone, and where it asks the engine for a play program's answer sets or for tables'
rulings it waits until every task of the round waits or has ended. What they asked is then
worked out together: the play programs in one grounding (engine/speed/plays.py), the rulings in
batches (ruling.rulings_for). A play's answer sets are those it has alone, so every answer is
the lone one, but for the order of a play's outcomes (clingo's, for the program it grounds)
and, for a randomized search (the simulator's picks), which answer set it meets first.

Nothing here decides a rule: it only changes when the engine is asked, never what.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..engine import solve
from ..engine.speed import batch, plays
from ..errors import ErrorItem, InputError
from ..table.state import TableState
from . import moves
from .rounds import PlayNeed, Round, Solved
from .ruling import ruling_for, rulings_for

Game = tuple[str | None, tuple[str, ...]]


# Bytes of JSON the outcomes of all the plays of one answer may take together (each play's
# share of it, as moves.MAX_OUTCOME_BYTES for one play): 16 plays of large tables would
# otherwise answer a few KB with 16 MB.
MAX_PLAYS_BYTES = 4 << 20


def play_responses(state: TableState, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answers of `moves.play_response` to each play of `requests` on `state`, worked out
    together. A play that is refused (InputError) or that hits the engine's time limit raises
    for the whole call, its paths under /plays/<index> rather than /play."""
    game = (state.edition, tuple(state.expansions))
    # the answer's outcomes share MAX_PLAYS_BYTES: up to 4 plays, each as much as alone
    share = moves.OUTCOME_BYTES.set(min(moves.MAX_OUTCOME_BYTES,
                                        MAX_PLAYS_BYTES // max(1, len(requests))))
    try:
        ended = run_together(game, [partial(moves.play_response, state, r) for r in requests])
    finally:
        moves.OUTCOME_BYTES.reset(share)
    for index, (_, value) in enumerate(ended):
        if isinstance(value, solve.TimeLimitError):
            raise solve.TimeLimitError(value.limit_s, f"/plays/{index}") from None
        if isinstance(value, InputError):
            raise _under(value, index) from None
        if isinstance(value, BaseException):
            raise value
    return [value for _, value in ended]


def run_together(game: Game, tasks: Sequence[Callable[[], Any]]) -> list[tuple[bool, Any]]:
    """Runs the tasks of `game` in one round, or one after the other where there is one task
    or batching is off; for each, (True, what it returned) or (False, the exception it
    raised)."""
    if not batch.batching() or len(tasks) < 2:
        return [_ended(task) for task in tasks]
    return Round(game, partial(_work_out, game)).run(tasks)


def _ended(task: Callable[[], Any]) -> tuple[bool, Any]:
    try:
        return True, task()
    except Exception as err:  # noqa: BLE001 - handed to the caller, as raised
        return False, err


def _work_out(game: Game, needs: list[PlayNeed],
              tables: list[TableState]) -> tuple[list[Solved | BaseException],
                                                 list[dict[str, Any] | BaseException]]:
    """What the tasks of a round asked for: the play programs' answer sets, together, and the
    tables' rulings, in batches; where the work together hits the time limit, each alone (an
    exception in place of the answer that still hits it)."""
    solved: list[Solved | BaseException] = []
    if needs:
        # the plays of several tables need the game's renamed program, built in the background
        # when first needed (until then they are solved one by one)
        found = plays.solve_plays([f for f, _, _ in needs], [n for _, n, _ in needs],
                                  partial(plays.PROGRAMS.ready, game), moves.game_program(game),
                                  limit_s=solve.time_limit() * batch.SLOT_SHARE,
                                  samples=[s for _, _, s in needs]) if len(needs) > 1 else None
        solved = list(found) if found is not None else [
            _alone(partial(moves.solve_alone, f, n, game, s)) for f, n, s in needs]
    rulings: list[dict[str, Any] | BaseException] = []
    if tables:
        try:
            rulings = list(rulings_for(tables))
        except solve.TimeLimitError:  # one table's: each alone, the others ruled
            rulings = [_alone(partial(ruling_for, t)) for t in tables]
    return solved, rulings


def _alone(work: Callable[[], Any]) -> Any:
    try:
        return work()
    except solve.TimeLimitError as err:
        return err


def _under(err: InputError, index: int) -> InputError:
    """`err` of a play, its fields under /plays/<index> (play_response says /play)."""
    def moved(path: str) -> str:
        inside = path == "/play" or path.startswith("/play/")
        return f"/plays/{index}{path[len('/play'):]}" if inside else path

    return InputError([ErrorItem(moved(i.path), i.en, i.zh, i.suggestions,
                                 tuple(moved(r) for r in i.related)) for i in err.items],
                      err.status, err.retry_after)
