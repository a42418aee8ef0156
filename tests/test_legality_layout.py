"""The legality package's shape: one job per module, a rules layer without heavy dependencies,
and every public name other code imports still importable from ``spymaster_ai.rules.legality``."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

import spymaster_ai.rules.legality as legality

PACKAGE = Path(legality.__file__).parent
MODULES = sorted(p for p in PACKAGE.glob("*.py"))
# The rules layer may use the standard library, lemminflect and wordfreq, nothing else
# (no numpy, no embeddings): it must load wherever the engines load.
ALLOWED_THIRD_PARTY = {"lemminflect", "wordfreq"}


def test_legality_is_a_package_split_by_job() -> None:
    names = {p.stem for p in MODULES}
    assert {"__init__", "verdicts", "options", "word_tables", "lexicon", "forms", "compounds", "analysis", "checks"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_each_module_says_why_it_exists_and_imports_only_the_rules_layer(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc and len(doc.split()) >= 10, f"{path.name} needs a docstring that says why it exists"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            tops = [(node.module or "").split(".")[0]]
        else:
            continue  # relative imports stay inside spymaster_ai.rules
        for top in tops:
            assert top in sys.stdlib_module_names or top in ALLOWED_THIRD_PARTY or top == "__future__", (
                f"{path.name} imports {top}"
            )


def test_relative_imports_stay_inside_the_rules_package() -> None:
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level <= 2, f"{path.name} reaches outside spymaster_ai.rules"
                if node.level == 2:  # the cards, and rules/lang for boards in other languages
                    assert node.module == "cards" or node.module.startswith("lang."), f"{path.name} imports ..{node.module}"


# Every name other modules, experiments and tests import from spymaster_ai.rules.legality.
PUBLIC = [
    "check_clue",
    "legal_mask",
    "LegalityOptions",
    "Verdict",
    "COLOUR_WORDS",
    "POSITION_WORDS",
    "DISTANCE_WORDS",
    "LETTER_WORDS",
    "NUMBER_WORDS",
    "SHAPE_WORDS",
    "RULE_COMPOUND_PART",
    "RULE_FOREIGN_WORD",
    "RULE_LETTERS_OR_POSITION",
    "RULE_NOT_A_WORD",
    "RULE_NOT_ONE_WORD",
    "RULE_PICTURE_APPEARANCE",
    "RULE_VISIBLE_WORD",
    "RULE_WORD_FORM",
    "card_texts",
    "PICTURE_ID_PREFIX",
]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_names_import_from_the_package(name: str) -> None:
    module = importlib.import_module("spymaster_ai.rules.legality")
    assert getattr(module, name) is not None
