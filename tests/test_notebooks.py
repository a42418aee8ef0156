"""The notebooks run top to bottom (small configuration) and their plots render.

Each notebook reads its parameters from environment variables; here a 2,000-word clue
vocabulary and, for the human-play notebook, the invented fixtures, so each runs in seconds.
Every figure is also saved (``SPYMASTER_AI_NB_FIGURES``) so the test can check it was drawn.
"""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
FIXTURES = ROOT / "tests" / "fixtures" / "human_duet"

SMALL = {
    "MPLBACKEND": "Agg",
    "SPYMASTER_AI_VOCAB_SIZE": "2000",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
}

CASES = {
    "clue_quality.ipynb": (
        {"SPYMASTER_AI_NB_EMBEDDINGS": "glove50,minilm"},
        ["candidates_target_vs_danger", "risk_sweep", "embedding_cross_reading"],
        ["candidate clue words", "risk 1.0:"],
    ),
    "human_play.ipynb": (
        {"SPYMASTER_AI_NB_AGENTS": "glove50", "SPYMASTER_AI_HUMAN_DATA": str(FIXTURES)},
        ["metrics_by_agent", "human_guess_rank", "understanding", "target_counts"],
        ["invented fixtures", "guess top-1"],
    ),
}


def _text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(out.get("text", ""))
    return "".join(parts)


def test_every_notebook_is_tested_and_committed_with_its_outputs():
    """A reader sees the figures without running anything; the human data never ships, so
    the human-play notebook's committed run reads the invented fixtures."""
    found = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert found == sorted(CASES)
    for name in found:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.execution_count is not None for c in code), name
        images = [o for c in code for o in c.outputs if "image/png" in o.get("data", {})]
        assert images, f"{name}: committed without its figures"
        assert not any(o.get("output_type") == "error" for c in code for o in c.outputs), name
    assert "invented fixtures" in _text(nbformat.read(NOTEBOOKS / "human_play.ipynb", as_version=4))


@pytest.mark.models
@pytest.mark.parametrize("name", sorted(CASES))
def test_notebook_runs_top_to_bottom(name, tmp_path, monkeypatch):
    env, figures, expected = CASES[name]
    for key, value in {**SMALL, **env, "SPYMASTER_AI_NB_FIGURES": str(tmp_path)}.items():
        monkeypatch.setenv(key, value)
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    for figure in figures:
        path = tmp_path / f"{figure}.png"
        assert path.is_file() and path.stat().st_size > 1000, figure
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = _text(nb)
    for snippet in expected:
        assert snippet in text, snippet
