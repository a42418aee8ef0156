"""Every figure in the README and the docs comes from a committed results file (issue 42 item 2).

The convention and the checker are in `docs_numbers.py`; these tests run it over the documents
and pin its rules on small made-up texts. Pure text: no model, no run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_numbers import ROOT, Block, all_blocks, blocks, check_block, documents, figures, unsourced

# Measurements that no committed results file holds (design screens recorded in the commit
# log, timings taken by hand). Each is marked <!-- unsourced: why -->. A new one changes this
# count, so it is a decision made in review, never a figure that slipped in.
UNSOURCED_BLOCKS = 21  # + the Kim adapter's hand profile (docs/kim_framework.md)


def _check(text: str, root: Path = ROOT, path: str = "doc.md") -> list[str]:
    return [str(p) for b in blocks(Path(path), text) for p in check_block(b, root)]


def test_every_figure_in_the_readme_and_docs_is_in_the_results_file_it_cites():
    problems = [str(p) for b in all_blocks() for p in check_block(b)]
    assert not problems, "documented figures without a matching source:\n" + "\n".join(problems)


def test_the_documents_checked_include_the_readme_and_every_doc():
    names = {str(p.relative_to(ROOT)) for p in documents()}
    assert {"README.md", "docs/agents.md", "docs/figures.md", "docs/isolation.md", "notebooks/README.md"} <= names


def test_unsourced_measurements_are_counted_so_a_new_one_is_deliberate():
    found = unsourced()
    where = "\n".join(f"{b.path}:{b.line}" for b in found)
    assert len(found) == UNSOURCED_BLOCKS, f"unsourced blocks now:\n{where}"


@pytest.fixture
def results(tmp_path):
    (tmp_path / "r.md").write_text("| cell | win % |\n|---|---|\n| a | 92.04 [90.1, 93.6] |\n| b | 1,000 games, 16/20 |\n"
                                   "paired: +0.117 over people [+0.013, +0.220]\n")
    return tmp_path


def test_a_figure_that_matches_its_source_passes(results):
    assert _check("Robust won 92.0% (of 1,000 games), [90.1, 93.6]. <!-- from: r.md -->", results) == []
    assert _check("It won 92% and 16/20. <!-- from: r.md -->", results) == []  # rounded, a fraction
    assert _check("+11.7 points [+1.3, +22.0]. <!-- from: r.md -->", results) == []  # points of a fraction


def test_a_changed_figure_fails_naming_the_figure_the_file_and_the_line(results):
    problems = _check("intro\n\nRobust won 92.5% of games. <!-- from: r.md -->", results)
    assert problems == ["doc.md:3: 92.5% is not in r.md"]
    assert _check("It won 17/20. <!-- from: r.md -->", results) == ["doc.md:1: 17/20 is not in r.md"]


def test_a_rounded_figure_must_round_from_a_headline_number_not_an_interval_bound(results):
    assert _check("Robust won 92.0%. <!-- from: r.md -->", results) == []  # 92.04, a cell's figure
    assert _check("Its bound was 90.1. <!-- from: r.md -->", results) == []  # quoted as written
    assert _check("It took 93.6 turns. <!-- from: r.md -->", results) == []
    assert _check("It took 94 turns. <!-- from: r.md -->", results) == ["doc.md:1: 94 turns is not in r.md"]  # 93.6 is a bound
    (results / "r.json").write_text('{"ci95": [0.2678, 0.3541]}')
    assert _check("Between 0.268 and 0.354. <!-- from: r.json -->", results) == []  # JSON lists are no intervals


def test_a_figure_without_a_marker_fails_and_so_does_a_numeric_table():
    assert "no source marker" in _check("Robust won 92.0% of games.")[0]
    assert "no source marker" in _check("It starts in about 4 s.")[0]
    assert "no source marker" in _check("| guesser | wins |\n|---|---|\n| random | 2/20 |")[0]
    # a table whose cells are words, and a count of games, need no source
    assert _check("| seat | what |\n|---|---|\n| 0: red | the first team |\n\nWe played 500 games.") == []


def test_a_marker_on_the_line_after_a_table_is_the_tables(results):
    table = "| cell | win % |\n|---|---|\n| a | 92.0 |\n<!-- from: r.md -->\n"
    assert _check(table, results) == []
    assert _check(table.replace("92.0", "93.0"), results) == ["doc.md:1: 93.0 is not in r.md"]


def test_not_a_result_exempts_the_numbers_it_names_or_the_whole_block(results):
    assert _check("`risk` (0.5) won 92.0%. <!-- not a result: 0.5 (the default) --> <!-- from: r.md -->", results) == []
    assert _check("`risk` (0.5) won 93.0%. <!-- not a result: 0.5 --> <!-- from: r.md -->", results) == [
        "doc.md:1: 93.0% is not in r.md"]
    assert _check("Timer 0.4 s and 40%. <!-- not a result: the page's settings -->") == []
    assert "must say why" in _check("It won 40%. <!-- not a result: -->")[0]


def test_code_is_no_figure_but_a_shell_comment_is(results):
    assert _check("Run `glove50:risk=0.7` at 0.5 ms.") != []  # the prose figure, not the code
    assert _check("Run `glove50:risk=0.7` now.") == []
    code = "```bash\nspymaster-ai bench --games 20   # 2 of 20, 24.3 turns\n```\n"
    assert "no source marker" in _check(code)[0]
    assert _check("```python\nx = 0.5\n```\n") == []


def test_versions_dates_hashes_and_interval_levels_are_no_figures():
    block = Block("doc.md", 1, "text", ["torch 2.13.0, 2026-12-04, commit a99d268, RULES.md §4, a 95% Wilson interval, arXiv:2306.02475"])
    assert [f for f in figures(block) if f.percent or f.decimal or f.fraction] == []


def test_a_marker_in_inline_code_is_an_example_not_a_marker():
    assert "no source marker" in _check("Write `<!-- not a result: why -->` beside 40%.")[0]


def test_a_missing_source_file_is_named(results):
    assert _check("It won 92.0%. <!-- from: nowhere.md -->", results) == ["doc.md:1: source nowhere.md does not exist"]


def test_a_source_at_a_commit_this_clone_lacks_is_skipped_not_failed(results):
    assert _check("It won 99.9%. <!-- from: r.md@0000000 -->", results) == []
