"""One evaluation run against the human data: every metric for one agent, in one report.

Why a separate step from the metrics: the command line, the notebooks and the tests all want
the same assembled result (row accounting, skipped metrics and why, the optional calibration
split) as one object that serialises to the ``--json`` output.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

from .. import __version__
from ..provenance import code_version, environment, source_hashes
from .adapter import AgentAdapter
from .calibration import CalibratedGuesser, CalibrationSplit, member_models, split_by_game
from .human_data import HumanDataset, RowProblem
from .human_join import join_intended_targets
from .human_metrics import (
    DEFAULT_DEPTH,
    ClueGivingResult,
    GuessingResult,
    TargetChoiceResult,
    UnderstandingResult,
    clue_counts,
    clue_giving_metrics,
    guessing_metrics,
    target_choice_metrics,
    understanding_metrics,
)

__all__ = ["METRICS", "CalibrationReport", "HumanEvalReport", "evaluate_human"]

METRICS = ("guessing", "clue-giving", "understanding", "target-choice")


@dataclass(frozen=True)
class CalibrationReport:
    """The calibrated guesser against the plain agent, both on the held-out games only."""

    split: CalibrationSplit
    features: list[str]
    coefficients: dict[str, float]
    baseline_guessing: GuessingResult
    calibrated_guessing: GuessingResult
    baseline_understanding: UnderstandingResult
    calibrated_understanding: UnderstandingResult

    def to_json(self) -> dict:
        return {
            "split": self.split.to_json(),
            "features": self.features,
            "coefficients": self.coefficients,
            "baseline": {"guessing": self.baseline_guessing.to_json(),
                         "understanding": self.baseline_understanding.to_json()},
            "calibrated": {"guessing": self.calibrated_guessing.to_json(),
                           "understanding": self.calibrated_understanding.to_json()},
        }


@dataclass(frozen=True)
class HumanEvalReport:
    data: str
    agent: str
    guess_method: str
    seed: int
    limit: Optional[int]
    depth: int
    rows: dict[str, dict[str, int]]
    problems: tuple[RowProblem, ...]
    guessing: Optional[GuessingResult] = None
    clue_giving: Optional[ClueGivingResult] = None
    understanding: Optional[UnderstandingResult] = None
    target_choice: Optional[TargetChoiceResult] = None
    skipped: dict[str, str] = field(default_factory=dict)
    calibration: Optional[CalibrationReport] = None
    reader: Optional[str] = None  # how a fitted human reader was scored (cross-fitted or as shipped)
    seconds: float = 0.0

    def to_json(self) -> dict:
        def part(result) -> Optional[dict]:
            return result.to_json() if result is not None else None

        return {
            "command": "eval human",
            "version": __version__,
            "environment": environment(),
            "provenance": eval_provenance(self.agent),
            "data": self.data,
            "agent": self.agent,
            "guess_method": self.guess_method,
            "seed": self.seed,
            "limit": self.limit,
            "depth": self.depth,
            "rows": self.rows,
            "malformed_rows": [p.to_json() for p in self.problems],
            "guessing": part(self.guessing),
            "clue_giving": part(self.clue_giving),
            "understanding": part(self.understanding),
            "target_choice": part(self.target_choice),
            "skipped": self.skipped,
            "calibration": part(self.calibration),
            "reader": self.reader,
            "seconds": round(self.seconds, 3),
        }


def _row_accounting(dataset: HumanDataset) -> dict[str, dict[str, int]]:
    parsed = {"guess": len(dataset.guesses), "clue": len(dataset.clues), "targets": len(dataset.targets)}
    return {task: {"read": dataset.rows_read[task], "parsed": parsed[task],
                   "malformed": dataset.rows_read[task] - parsed[task]} for task in parsed}


def evaluate_human(
    dataset: HumanDataset,
    adapter: AgentAdapter,
    *,
    seed: int = 0,
    depth: int = DEFAULT_DEPTH,
    calibrate: bool = False,
    metrics: Sequence[str] = METRICS,
    cross_fit: bool = True,
) -> HumanEvalReport:
    """Run the chosen ``metrics`` (and the calibration split if asked) for one agent.

    An agent built on the fitted human reader is scored honestly: on data the shipped
    reader was fitted on, every turn is read by a reader fitted on the other games only
    (``cross_fit``; see :mod:`.reader_fit`)."""
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; choose from {', '.join(METRICS)}")
    started = time.perf_counter()
    reader_note = _cross_fit(dataset, adapter) if cross_fit else _reader_note(adapter, "as shipped (no cross-fitting asked)")
    join = join_intended_targets(dataset.guesses, dataset.clues)
    counts = clue_counts(join)
    skipped: dict[str, str] = {}
    results: dict[str, object] = {}
    for metric in metrics:
        if metric in ("guessing", "understanding") and not adapter.can_guess:
            skipped[metric] = adapter.guesser_note or "the agent has no guesser"
        elif metric in ("clue-giving", "target-choice") and not adapter.can_rank_clues:
            skipped[metric] = adapter.spymaster_note or "the agent's spymaster has no public rank_clues"
        elif metric == "guessing":
            results[metric] = guessing_metrics(dataset.guesses, adapter, counts=counts, seed=seed)
        elif metric == "understanding":
            results[metric] = understanding_metrics(join, adapter, seed=seed)
        elif metric == "clue-giving":
            results[metric] = clue_giving_metrics(dataset.clues, adapter, depth=depth, seed=seed)
        else:
            results[metric] = target_choice_metrics(dataset.targets, adapter, seed=seed)
    calibration = None
    if calibrate:
        if adapter.embedding is None:
            skipped["calibration"] = "the agent's guesser exposes no embedding to calibrate"
        else:
            calibration = _calibrate(dataset, adapter, join, counts, seed)
    return HumanEvalReport(
        data=str(dataset.root), agent=adapter.name, guess_method=adapter.guess_method, seed=seed,
        limit=dataset.limit, depth=depth,
        rows=_row_accounting(dataset), problems=dataset.problems,
        guessing=results.get("guessing"), clue_giving=results.get("clue-giving"),  # type: ignore[arg-type]
        understanding=results.get("understanding"), target_choice=results.get("target-choice"),  # type: ignore[arg-type]
        skipped=skipped, calibration=calibration, reader=reader_note, seconds=time.perf_counter() - started,
    )


def _readers(adapter: AgentAdapter) -> list[tuple[object, str]]:
    """(agent, attribute) of every human reader the adapter's agents read with."""
    from ..agents.human.reader import HumanReader

    out = []
    for agent in (adapter.guesser, adapter.spymaster):
        for attr in ("_reader", "reader"):
            if isinstance(agent.__dict__.get(attr) if agent is not None else None, HumanReader):
                out.append((agent, attr))
                break
    return out


def _reader_note(adapter: AgentAdapter, note: str) -> Optional[str]:
    return note if _readers(adapter) else None


def _cross_fit(dataset: HumanDataset, adapter: AgentAdapter) -> Optional[str]:
    """Swap a shipped reader for a cross-fitted one where the data holds rows it was fitted on."""
    from .reader_fit import CrossFittedReader, seen_rows

    found = _readers(adapter)
    if not found:
        return None
    shipped = getattr(found[0][0], found[0][1])
    seen = seen_rows(dataset, shipped.params)
    if not seen:
        return "as shipped: none of these rows was in its fitting data"
    crossed = CrossFittedReader.of_shipped(dataset, shipped)
    for agent, attr in found:
        setattr(agent, attr, crossed)
    return (f"cross-fitted: {seen} of these rows were in the shipped reader's fitting data, so each game is "
            f"read by a reader fitted on the other games ({crossed.folds} folds of whole games)")


def _calibrate(dataset: HumanDataset, adapter: AgentAdapter, join, counts, seed: int) -> CalibrationReport:
    split = split_by_game(dataset.guesses, seed)
    fit = [t for t in dataset.guesses if t.row in split.fit_rows]
    test = [t for t in dataset.guesses if t.row in split.test_rows]
    model = CalibratedGuesser(member_models(adapter.embedding), name=f"calibrated {adapter.name}").fit(fit)
    rows = set(split.test_rows)
    return CalibrationReport(
        split=split,
        features=model.feature_names,
        coefficients=model.coefficients(),
        baseline_guessing=guessing_metrics(test, adapter, counts=counts, seed=seed),
        calibrated_guessing=guessing_metrics(test, model, counts=counts, seed=seed),
        baseline_understanding=understanding_metrics(join, adapter, seed=seed, rows=rows),
        calibrated_understanding=understanding_metrics(join, model, seed=seed, rows=rows),
    )


def eval_provenance(agent: str) -> dict:
    """What made an evaluation: the code, the agent's resolved parameters in each role its
    spec can play (a role it cannot play is left out), user files' sha256, environment."""
    from ..agents.registry import AgentSpecError, resolve_spec

    import re

    specs = {"spymaster": agent, "guesser": agent}
    split = re.fullmatch(r"guesser=(.*), spymaster=(.*)", agent)  # make_adapter's name for two specs
    if split:
        specs = {"guesser": split[1], "spymaster": split[2]}
    parameters = {}
    for role, spec in specs.items():
        try:
            parameters[role] = resolve_spec(role, spec, isolate=False)  # the adapter runs them in this process
        except (AgentSpecError, ValueError):
            continue
    return {"code": code_version(), "parameters": parameters, "sources": source_hashes(specs),
            "environment": environment()}
