"""The memory allocator of the long-running commands (adjudicator/allocator.py): a process that
asks for jemalloc is executed again, with the same arguments, with it preloaded; `FLUXX_MALLOC=
system`, a preload of the process's own, a machine without jemalloc and a command line that is
not the process's own (a host that set `sys.argv`, a script read from standard input) leave the
process as it is. That `serve` and `simulate` ask for it: tests/cli/test_cli.py; that the served
workers run with it: tests/web/test_serve.py."""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys

import pytest

needs_jemalloc = pytest.mark.skipif(
    sys.platform != "linux" or ctypes.util.find_library("jemalloc") is None,
    reason="needs jemalloc (.ci/run installs Debian's libjemalloc2)")


def _allocator_of(env: dict[str, str]) -> str:
    """What a process that asks for jemalloc (allocator.use_jemalloc) runs with."""
    code = ("import sys; from adjudicator import allocator; allocator.use_jemalloc(); "
            "print(allocator.in_use(), sys.argv[1:])")
    env = {k: v for k, v in os.environ.items() if k not in ("FLUXX_MALLOC", "LD_PRELOAD")} | env
    done = subprocess.run([sys.executable, "-c", code, "serve", "--port", "1"], env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    used, args = done.stdout.strip().split(" ", 1)
    assert args == "['serve', '--port', '1']"  # the same command, executed again
    return used


@needs_jemalloc
def test_a_process_that_asks_for_jemalloc_runs_with_it() -> None:
    assert _allocator_of({}) == "jemalloc"
    assert _allocator_of({"FLUXX_MALLOC": "system"}) == "system"  # turned off: glibc's
    assert _allocator_of({"LD_PRELOAD": "libm.so.6"}) == "system"  # a preload of its own kept


def test_only_a_process_own_command_line_is_executed_again(monkeypatch) -> None:
    from adjudicator import allocator

    monkeypatch.setattr(sys, "orig_argv", ["python3", "-m", "adjudicator.cli", "serve"])
    monkeypatch.setattr(sys, "argv", ["/x/adjudicator/cli/__main__.py", "serve"])
    assert allocator.own_command_line()
    monkeypatch.setattr(sys, "argv", ["fluxx-adjudicator", "simulate"])  # set by a host
    assert not allocator.own_command_line()
    monkeypatch.setattr(sys, "orig_argv", ["python3", "bench/play_bench.py"])
    monkeypatch.setattr(sys, "argv", ["bench/play_bench.py"])  # a script with no arguments
    assert allocator.own_command_line()
    monkeypatch.setattr(sys, "orig_argv", ["python3", "-", "serve"])  # a script from stdin
    monkeypatch.setattr(sys, "argv", ["-", "serve"])
    assert not allocator.own_command_line()


def test_without_jemalloc_the_process_goes_on_as_it_is(monkeypatch) -> None:
    from adjudicator import allocator

    monkeypatch.delenv("FLUXX_MALLOC", raising=False)
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("executed again"))
    allocator.use_jemalloc()  # returns: nothing to preload
