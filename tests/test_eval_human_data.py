"""Reading the human Duet files: layouts, parsing, and clear errors for malformed input.

The fixtures in tests/fixtures/human_duet are invented rows in the dataset's format.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from spymaster_ai.eval.human_data import (
    TASK_FILES,
    HumanDataError,
    RowError,
    load_human_data,
    locate_human_data,
    parse_clue_row,
    parse_guess_row,
    parse_target_row,
    parse_word_list,
)

FIXTURES = Path(__file__).parent / "fixtures" / "human_duet"
HEADER = ["", "base_text", "leaning_only", "event_only", "demo_only", "personality_only", "all_text", "output"]


def copy_fixtures(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name, _ in TASK_FILES.values():
        shutil.copy(FIXTURES / name, dest / name)
    return dest


def write_rows(path: Path, rows: list[tuple[str, str]], header: list[str] = HEADER) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        for i, (base, out) in enumerate(rows):
            writer.writerow([i, base, base, base, base, base, base, out][: len(header)])


# -- parsing the fixtures ----------------------------------------------------------------------


def test_fixture_rows_are_parsed_in_order_with_every_field():
    data = load_human_data(FIXTURES)
    assert (len(data.guesses), len(data.clues), len(data.targets)) == (10, 12, 4)
    assert data.problems == ()
    first = data.guesses[0]
    assert first.row == 1
    assert first.clue == "ocean"
    assert first.remaining[:3] == ("lion", "shark", "whale") and len(first.remaining) == 11
    assert first.guesses == ("whale", "shark") and first.first_guess == "whale"
    assert data.guesses[3].guesses == () and data.guesses[3].first_guess is None  # no guess recorded
    clue = data.clues[6]
    assert (clue.black, clue.tan, clue.targets, clue.clue) == (
        ("hammer",), ("lion", "fire", "star", "river"), ("piano", "ball"), "beat")
    target = data.targets[0]
    assert target.green == ("whale", "shark", "sun", "piano", "lion")
    assert target.chosen == ("whale", "shark")
    assert data.rows_read == {"guess": 10, "clue": 12, "targets": 4}


def test_limit_reads_only_the_first_rows_of_each_file():
    data = load_human_data(FIXTURES, limit=3)
    assert [t.row for t in data.guesses] == [1, 2, 3]
    assert len(data.clues) == 3 and len(data.targets) == 3
    assert data.rows_read == {"guess": 3, "clue": 3, "targets": 3}
    with pytest.raises(HumanDataError, match="--limit"):
        load_human_data(FIXTURES, limit=0)


@pytest.mark.parametrize("text, expected", [
    ("['a', 'b']", ("a", "b")),
    ('["Ice Cream", " b "]', ("ice cream", "b")),
    ("('a',)", ("a",)),
    ("[]", ()),
])
def test_word_lists_are_python_literals_normalised(text, expected):
    assert parse_word_list(text, "x") == expected


@pytest.mark.parametrize("text, message", [
    ("['a', 'b'", "not a Python list"),
    ("[a, b]", "not a Python list"),
    ("__import__('os')", "not a Python list"),
    ("'a'", "expected a list"),
    ("[1, 'a']", "is not a word"),
    ("['a', '  ']", "empty word"),
    ("['a', 'A']", "repeated words a"),
])
def test_bad_word_lists_are_refused_with_the_reason(text, message):
    with pytest.raises(RowError, match=message):
        parse_word_list(text, "remaining")


def test_row_parsers_check_the_content():
    with pytest.raises(RowError, match="not among the remaining"):
        parse_guess_row(1, "remaining: ['a', 'b'], hint: c", "z")
    with pytest.raises(RowError, match="empty clue"):
        parse_guess_row(1, "remaining: ['a', 'b'], hint:  ", "a")
    with pytest.raises(RowError, match="not of the form"):
        parse_guess_row(1, "board: ['a'], hint: c", "a")
    with pytest.raises(RowError, match="listed both as black and as targets"):
        parse_clue_row(1, "black: ['a'], tan: ['b'], targets: ['a']", "c")
    with pytest.raises(RowError, match="no target"):
        parse_clue_row(1, "black: ['a'], tan: ['b'], targets: []", "c")
    with pytest.raises(RowError, match="empty clue"):
        parse_clue_row(1, "black: ['a'], tan: ['b'], targets: ['d']", "")
    with pytest.raises(RowError, match="not one of the green"):
        parse_target_row(1, "green: ['a'], black: ['b'], tan: ['c']", "b")
    with pytest.raises(RowError, match="no chosen target"):
        parse_target_row(1, "green: ['a'], black: ['b'], tan: ['c']", "")
    with pytest.raises(RowError, match="empty item"):
        parse_target_row(1, "green: ['a', 'd'], black: ['b'], tan: ['c']", "a, , d")
    assert parse_guess_row(7, " remaining: ['A', 'b'] , hint:  Wi-Fi ", " b , a").guesses == ("b", "a")
    assert parse_target_row(1, "green: ['a', 'd'], black: [], tan: []", "['d', 'a']").chosen == ("d", "a")


# -- layouts -------------------------------------------------------------------------------------


def test_flat_folder_repository_data_folder_and_original_nested_layout(tmp_path):
    flat = copy_fixtures(tmp_path / "flat")
    assert locate_human_data(flat)["guess"] == flat / "generate_guess_task_val.csv"
    repo = tmp_path / "repo"
    copy_fixtures(repo / "data")
    assert locate_human_data(repo)["clue"] == repo / "data" / "clue_generation_task_val.csv"
    nested = tmp_path / "clone"
    for task, (name, folder) in TASK_FILES.items():
        (nested / "data" / folder).mkdir(parents=True)
        shutil.copy(FIXTURES / name, nested / "data" / folder / "val.csv")
        # A test split beside it must never be read: make it unreadable as a CSV.
        (nested / "data" / folder / "test.csv").write_bytes(b"\xff\xfe not csv")
    assert locate_human_data(nested)["targets"] == nested / "data" / "target_selection_task" / "val.csv"
    assert len(load_human_data(nested).guesses) == 10


def test_missing_folder_or_files_name_the_path_and_what_was_expected(tmp_path):
    with pytest.raises(HumanDataError, match="no such folder"):
        load_human_data(tmp_path / "nowhere")
    with pytest.raises(HumanDataError, match="generate_guess_task_val.csv"):
        load_human_data(tmp_path)
    file = tmp_path / "x.csv"
    file.write_text("a\n")
    with pytest.raises(HumanDataError, match="not a file"):
        load_human_data(file)
    partial = copy_fixtures(tmp_path / "partial")
    (partial / "target_selection_task_val.csv").unlink()
    with pytest.raises(HumanDataError, match="but not target_selection_task_val.csv"):
        load_human_data(partial)


# -- malformed files and rows ----------------------------------------------------------------------


def test_a_file_without_the_columns_is_an_error_naming_file_and_columns(tmp_path):
    folder = copy_fixtures(tmp_path / "d")
    write_rows(folder / "clue_generation_task_val.csv", [("x", "y")], header=["", "text", "label"])
    with pytest.raises(HumanDataError, match=r"clue_generation_task_val\.csv: missing column\(s\) base_text, output"):
        load_human_data(folder)
    (folder / "clue_generation_task_val.csv").write_text("")
    with pytest.raises(HumanDataError, match="empty file"):
        load_human_data(folder)


def test_a_file_that_is_not_text_is_an_error(tmp_path):
    folder = copy_fixtures(tmp_path / "d")
    (folder / "generate_guess_task_val.csv").write_bytes(b",base_text,output\n0,\xff\xfe\x00,\x80\n")
    with pytest.raises(HumanDataError, match=r"generate_guess_task_val\.csv: not UTF-8"):
        load_human_data(folder)


def test_malformed_rows_are_reported_with_file_row_and_reason_and_the_rest_kept(tmp_path):
    folder = copy_fixtures(tmp_path / "d")
    good = "remaining: ['a', 'b', 'c'], hint: d"
    write_rows(folder / "generate_guess_task_val.csv", [
        (good, "a"),
        ("remaining: ['a', 'b', hint: d", "a"),  # broken list
        (good, "z"),  # guess not on the board
        (good, ""),  # no guess: a valid row
    ])
    data = load_human_data(folder)
    assert [t.row for t in data.guesses] == [1, 4]
    assert [(p.file, p.row) for p in data.problems] == [
        ("generate_guess_task_val.csv", 2), ("generate_guess_task_val.csv", 3)]
    assert "not of the form" in data.problems[0].reason or "not a Python list" in data.problems[0].reason
    assert "'z' is not among the remaining words" in data.problems[1].reason
    assert str(data.problems[1]).startswith("generate_guess_task_val.csv, row 3 (line 4)")
    assert data.rows_read["guess"] == 4
    with pytest.raises(HumanDataError, match=r"generate_guess_task_val\.csv, row 2 \(line 3\)"):
        load_human_data(folder, strict=True)


def test_rows_with_too_few_or_too_many_fields_are_malformed(tmp_path):
    folder = copy_fixtures(tmp_path / "d")
    path = folder / "target_selection_task_val.csv"
    path.write_text(",base_text,output\n0,\"green: ['a'], black: [], tan: []\",a,extra\n1\n"
                    "2,\"green: ['a'], black: [], tan: []\",a\n")
    data = load_human_data(folder)
    assert [p.row for p in data.problems] == [1, 2]
    assert "more fields" in data.problems[0].reason and "too few fields" in data.problems[1].reason
    assert [t.row for t in data.targets] == [3]


@pytest.mark.parametrize("output", ["[['fruit']]", "[1]", "{}", "['a', 'b']", "[unclosed"])
def test_a_clue_cell_holding_a_literal_other_than_one_word_is_a_malformed_row(output):
    with pytest.raises(RowError, match="expected one clue word"):
        parse_clue_row(1, "black: ['a'], tan: ['b'], targets: ['d']", output)


def test_a_one_word_list_literal_is_read_as_its_word():
    assert parse_clue_row(1, "black: ['a'], tan: ['b'], targets: ['d']", "['Fruit']").clue == "fruit"
