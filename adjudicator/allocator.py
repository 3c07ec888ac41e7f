"""The memory allocator of the long-running commands (`serve`, `simulate`): jemalloc, where the
machine has it (Debian: `apt-get install libjemalloc2`), instead of the C library's malloc.

Why: every grounding builds a clingo Control whose ground program is allocated piece by piece
and freed at once when the ruling is done, thousands of times a minute in a served worker. Under
glibc's malloc a lone ruling of a realistic table takes more CPU time than under jemalloc, and a
served worker answers fewer rulings per CPU second (bench/HISTORY.md has the measurements).

The allocator is chosen when a process starts (the dynamic loader's LD_PRELOAD), so a command
that wants it executes itself again with jemalloc preloaded, before it starts any work or
thread; the processes it forks or starts (gunicorn's workers, nginx under `--front nginx`, the
simulator's games) inherit it. `FLUXX_MALLOC=system` keeps the C library's malloc (for
comparing); a process started with LD_PRELOAD of its own keeps what it preloads; without jemalloc
on the machine nothing changes.
"""

from __future__ import annotations

import ctypes.util
import os
import sys

ENV = "FLUXX_MALLOC"  # "system": keep the C library's malloc


def own_command_line() -> bool:
    """Whether `sys.argv` is this process's own command line, so that executing it again
    repeats the command (not so for a script read from standard input, already used up)."""
    tail = sys.argv[1:]
    if sys.argv[0] == "-":
        return False
    # a script run with no arguments ends the command line; -m and -c replace argv[0]
    return sys.orig_argv[-len(tail):] == tail if tail else sys.orig_argv[-1:] == sys.argv[:1]


def use_jemalloc() -> None:
    """Executes this process again with jemalloc preloaded, when the machine has it, the
    process preloads nothing yet and FLUXX_MALLOC is not "system"; else returns at once and the
    process goes on with the allocator it has."""
    if (os.environ.get(ENV) == "system" or os.environ.get("LD_PRELOAD")
            or not sys.platform.startswith("linux") or not own_command_line()):
        return
    library = ctypes.util.find_library("jemalloc")
    if library is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    # once executed again, LD_PRELOAD is set: this returns at once (no loop)
    os.execve(sys.executable, sys.orig_argv, dict(os.environ, LD_PRELOAD=library))


def in_use() -> str:
    """The allocator of this process: "jemalloc" when it is loaded, else "system"."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return "jemalloc" if "libjemalloc" in maps.read() else "system"
    except OSError:
        return "system"
