"""bench/grounding_floor.py runs and prints every part (figures are printed, never asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def floor_module():
    if not (BENCH / "grounding_floor.py").is_file():
        pytest.skip("bench/ is not part of this checkout")
    sys.path.insert(0, str(BENCH))
    try:
        path = BENCH / "grounding_floor.py"
        spec = importlib.util.spec_from_file_location("grounding_floor", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.slow
def test_prints_every_part(floor_module, capsys: pytest.CaptureFixture[str]) -> None:
    assert floor_module.main(["-n", "2"]) == 0
    out = capsys.readouterr().out
    for part in ("1. clingo's cost per rule", "2. each game's program", "3. a lone 4-player",
                 "4. 2,000 symbols"):
        assert part in out
    for game in ("fluxx ", "fluxx+creepers+surprises", "math", "fluxxnomic"):
        assert f"\n{game}" in out
    for stage in ("control", "add rules", "ground", "solve+read", "free"):
        assert f"   {stage}" in out
    assert "grounds at about" in out and "outside grounding" in out
