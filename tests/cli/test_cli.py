"""The `fluxx-adjudicator` command line: the knowledge commands (`faq`, `build-store`, faq/load.py),
output piped into a reader that is already gone (no traceback, a quiet exit), and the `faq`
command's query limit (the API's, exit 2, in both languages). `rule` and `play` are tested with
the engine and the plays (tests/engine/test_engine.py, tests/rules/test_plays.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.cli import EXIT_BROKEN_PIPE, main
from adjudicator.knowledge.search import MAX_QUERY

ROOT = Path(__file__).resolve().parents[2]


# ---- the knowledge commands: faq, build-store, faq/load.py --------------------------------------

def test_cli_faq(capsys):
    assert main(["faq", "无手牌奖励", "抓5张牌"]) == 0
    out = capsys.readouterr().out
    assert "[002-63]" in out and "/faq/002-63" in out
    assert "Rulebook" in out


def test_cli_faq_json(capsys):
    assert main(["faq", "Double Agenda empty slot", "--json", "--limit", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["faq"][0]["id"] == "002-74"
    assert len(data["faq"]) <= 2 and all(r["kind"] == "rulebook" for r in data["rulebook"])


def test_cli_faq_says_which_words_it_searched_for(capsys):
    assert main(["faq", "inflaton"]) == 0
    out = capsys.readouterr().out
    assert "Showing results for “inflation”." in out and "以下是“inflation”的搜索结果。" in out
    assert "[002-40]" in out
    assert main(["faq", "inflaton", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["corrected"] == "inflation"


def test_cli_faq_bad_limit(capsys):
    assert main(["faq", "draw", "--limit", "0"]) == 2
    assert "limit" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_build_store(tmp_path: Path, capsys):
    target = tmp_path / "built.db"
    assert main(["build-store", "--path", str(target)]) == 0
    assert target.is_file()
    assert "83 faq" in capsys.readouterr().out


@pytest.mark.slow
def test_load_script_rebuilds_the_store(tmp_path: Path):
    import subprocess
    import sys

    from adjudicator.resources import faq_dir

    target = tmp_path / "loaded.db"
    done = subprocess.run([sys.executable, str(faq_dir() / "load.py"), str(target)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert str(target) in done.stdout
    from adjudicator.knowledge import store

    assert store.built_from(target) == store.fingerprint()


# ---- a pipe closed early: no traceback, a quiet exit --------------------------------------------

STATE_YAML = """\
players:
  - {name: Ann, hand: [Draw 2, Jackpot!]}
  - {name: Bo, hand_size: 3, keepers: [Love]}
active: Ann
rules: [Draw 3]
"""


def _run_into_closed_pipe(args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    """The CLI with its stdout a pipe whose reader has already gone (`| head` that is done)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "adjudicator.cli", *args], stdout=write_end,
            stderr=subprocess.PIPE, input=stdin.encode(), cwd=ROOT, timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args, stdin", [(["faq", "draw"], ""),
                                         (["faq", "draw", "--json"], ""),
                                         (["rule", "-"], STATE_YAML),
                                         (["rule", "-", "--json"], STATE_YAML)])
@pytest.mark.slow
def test_the_cli_ends_quietly_when_its_reader_is_gone(store_path, args, stdin):
    done = _run_into_closed_pipe(args, stdin)
    assert done.stderr.decode() == ""  # no traceback, no "Exception ignored" either
    assert done.returncode == EXIT_BROKEN_PIPE


@pytest.mark.slow
def test_the_cli_output_is_whole_when_read(store_path):
    """The guard changes nothing for a reader that stays."""
    done = subprocess.run([sys.executable, "-m", "adjudicator.cli", "rule", "-", "--json"],
                          input=STATE_YAML.encode(), capture_output=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["turn"]["player"] == "Ann"


# ---- the faq command's query limit: the API's, with exit 2, in both languages -------------------

def test_the_cli_refuses_an_overlong_query_like_the_api(client, capsys):
    long = "draw " * 200  # 1000 characters
    assert client.get("/api/search", query_string={"q": long}).status_code == 400
    assert main(["faq", long]) == 2
    captured = capsys.readouterr()
    assert "No matches" not in captured.out
    assert f"longer than {MAX_QUERY} characters" in captured.err and "/query" in captured.err
    assert main(["faq", long, "--lang", "zh"]) == 2
    assert f"查询超过 {MAX_QUERY} 个字符" in capsys.readouterr().err
    assert main(["faq", long, "--json"]) == 2
    body = json.loads(capsys.readouterr().out)
    assert body["ok"] is False and body["errors"][0]["path"] == "/query"
    assert set(body["errors"][0]["message"]) == {"en", "zh"}


def test_the_cli_accepts_a_query_at_the_limit(capsys):
    at_limit = ("draw " * MAX_QUERY)[:MAX_QUERY]
    assert main(["faq", at_limit, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


# ---- serve: gunicorn by default, Flask's server only with --dev ---------------------------------

def _served(monkeypatch, argv: list[str] | None) -> dict:
    """What `serve` would run for `argv`, without running it."""
    from flask import Flask

    from adjudicator.cli import serve
    from adjudicator.web import server

    ran: dict = {}
    monkeypatch.setattr(serve, "_build_store", lambda path: path)
    monkeypatch.setattr(server, "run_gunicorn", lambda app, bind, workers, threads, hooks=None:
                        ran.update(server="gunicorn", bind=bind, workers=workers, threads=threads))
    monkeypatch.setattr(Flask, "run", lambda app, **kw: ran.update(server="flask", **kw))
    assert main(argv) == 0
    return ran


def test_serve_runs_gunicorn_with_a_worker_per_core(monkeypatch) -> None:
    from adjudicator.cli.serve import THREADS_PER_WORKER, cores

    ran = _served(monkeypatch, ["serve", "--port", "5000"])  # the README's first command
    assert ran == {"server": "gunicorn", "bind": "127.0.0.1:5000", "workers": cores(),
                   "threads": THREADS_PER_WORKER}
    assert _served(monkeypatch, ["serve", "--workers", "3"])["workers"] == 3


def test_serve_runs_flasks_server_only_with_dev(monkeypatch) -> None:
    ran = _served(monkeypatch, ["serve", "--dev", "--port", "5001"])
    assert ran["server"] == "flask" and ran["port"] == 5001


# ---- jemalloc: asked for by the long-running commands of the process's own command line ------

def test_only_the_own_command_line_of_a_long_running_command_asks_for_jemalloc(
        monkeypatch, capsys) -> None:
    from adjudicator import allocator

    asked: list[str] = []
    monkeypatch.setattr(allocator, "use_jemalloc", lambda: asked.append(sys.argv[1]))
    # called with arguments (a test, an embedding): never, or the caller's process would be
    # executed again
    assert main(["simulate", "--players", "9"]) == 2
    assert asked == []
    for argv, status in ((["simulate", "--players", "9"], 2), (["rule", "/nonexistent"], 2)):
        monkeypatch.setattr(sys, "argv", ["fluxx-adjudicator", *argv])
        assert main() == status
    assert asked == ["simulate"]  # `rule` is over in a moment: not worth a second start
    monkeypatch.setattr(sys, "argv", ["fluxx-adjudicator", "serve", "--dev"])
    assert _served(monkeypatch, None)["server"] == "flask"
    assert asked == ["simulate"]  # Flask's development server keeps the C library's malloc


# ---- rule: an endless input is read only as far as its limit ------------------------------------

@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_rule_reads_an_endless_file_only_to_its_limit() -> None:
    done = subprocess.run([sys.executable, "-m", "adjudicator.cli", "rule", "/dev/zero"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert "too long" in done.stderr and "Traceback" not in done.stderr


# ---- a store that cannot be built where it lives: a clear message, exit 2 ----------------------

def _read_only_folder(monkeypatch, tmp_path: Path) -> Path:
    """A store path in a folder that takes no new file (as a read-only one does, root or not)."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    return tmp_path / "store.db"


@pytest.mark.parametrize("content", [None, b"not a database" * 100])
def test_a_store_missing_or_corrupt_in_a_read_only_folder_is_exit_2(monkeypatch, tmp_path,
                                                                     capsys, content) -> None:
    path = _read_only_folder(monkeypatch, tmp_path)
    if content is not None:
        path.write_bytes(content)
    monkeypatch.setenv("FLUXX_STORE", str(path))
    assert main(["faq", "draw"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "Permission denied" in err and "--store" in err
    assert main(["serve", "--store", str(path)]) == 2


@pytest.mark.parametrize("where", ["folder", "missing/x.json", "/dev/full"])
def test_a_state_out_that_cannot_be_written_is_a_clear_error(tmp_path: Path, capsys,
                                                            where: str) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"players": [{"name": "Ann", "hand": ["Jackpot"]},
                                             {"name": "Bo", "hand_size": 3}],
                                 "active": "Ann"}), encoding="utf-8")
    (tmp_path / "folder").mkdir()
    target = where if where.startswith("/") else str(tmp_path / where)
    assert main(["play", str(table), "Jackpot", "--state-out", target]) == 2
    err = capsys.readouterr().err
    assert "/state_out" in err and "Cannot write" in err and "Traceback" not in err


@pytest.mark.parametrize("port", ["99999", "-5", "http"])
def test_serve_refuses_a_port_that_is_none(capsys, port: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", port])
    assert exit_.value.code == 2
    assert "--port" in capsys.readouterr().err
