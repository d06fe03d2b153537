"""The run's configuration: defaults < dgm.toml < command-line flags, resolved once and
stored in the archive's run row. A resumed run keeps the choices that define the search.
What the environment decides (`--fm auto`, `DGM_MODEL`) is read here, at resolution, so the
stored config records it."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Changing these would make a resumed run a different search.
FIXED_ON_RESUME = (
    "benchmark",
    "mode",
    "selector",
    "seed",
    "alpha",
    "children",
    "stages",
    "threshold",
    "admission",
    "group_size",
    "phantom",
    "utility",
    "epochs",
    "judge_first",
)
# The roles a model can be set for ([models] in dgm.toml, --model-ROLE): the task agent,
# the meta agent, and the meta agent's diagnosis call (which it asks for by this name).
ROLES = {
    "solve": "the task agent's calls",
    "improve": "the meta agent's calls",
    "diagnose": "the meta agent's diagnosis (the calls it makes asking for model 'diagnose')",
    "judge": "the judge's review of each evaluation's patch (runs whose utilities use a judge)",
}
# Any one of these ends the run; with none set it would not end.
LIMITS = ("max_evals", "max_expansions", "budget_usd", "max_hours")


class ConfigError(Exception):
    """A configuration that cannot be used; the message says which key and why."""


def check_judge_prompt(path: Path) -> str:
    """The prompt's text, if it is a template the judge can fill ({statement}, {outcome},
    {patch}, {marker}; other braces doubled)."""
    try:
        text = path.read_text()
        text.format(statement="", outcome="", patch="", marker="")
    except OSError as exc:
        raise ConfigError(f"config: judge_prompt = {str(path)!r} cannot be read: {exc.strerror}") from None
    except (KeyError, IndexError, ValueError) as exc:
        raise ConfigError(
            f"config: judge_prompt = {str(path)!r} is not a template the judge can fill ({exc!r}); it may name "
            "{statement}, {outcome}, {patch} and {marker}, and other braces must be doubled"
        ) from None
    if "{patch}" not in text:
        raise ConfigError(f"config: judge_prompt = {str(path)!r} never shows the judge the patch ({{patch}})")
    return text


@dataclass(frozen=True)
class RunConfig:
    fm: str = "auto"  # the model upstream: auto, openai[:URL], local, scripted:FILE, replay:RUN
    model: str | None = None  # a model name at the upstream (default: the upstream's first)
    models: dict[str, str] = field(default_factory=dict)  # role -> model name, over `model` (see ROLES)
    recipe: str | None = None  # a preset of the levers below (recipes.py): dgm | hgm | gea | darwinx
    teacher_model: str | None = None  # a stronger model whose attempt at the parent's focus task joins the evidence
    benchmark: str = "builtin:dev"  # suite and split the agents are evolved on
    mode: str = "hgm"  # hgm | dgm | gea
    selector: str | None = None  # parent selector (default: cmp_thompson for hgm, score_child_prop for dgm)
    admission: str = "any"  # which valid agents may be parents: any | preserve_extend[:TOLERANCE]
    alpha: float = 0.6  # hgm: expand when n_evals ** alpha >= n_nodes - 1 + pending expansions
    cooldown: float = 0.0  # fraction of --max-evals at the end spent without expanding
    children: int = 4  # dgm: children per generation
    stages: tuple[int, ...] = (10, 25)  # dgm: staged evaluation sizes (then the full set)
    threshold: float = 0.4  # dgm: resolve rate needed to pass a stage
    group_size: int = 3  # gea: agents in each parent's group, whose experience its meta agent gets
    recombine: float = 0.0  # the chance an expansion also takes a second parent from another lineage
    final_rule: str = "quantile"  # mean | lcb | quantile
    utility: str = "tests"  # what an evaluation is worth: tests | judge | tests+judge:W (utilities.py)
    epochs: str | None = None  # N:U1,U2,...: epochs of N evaluations, each under the next utility
    judge_first: float | None = None  # judge a new agent's first patch before grading; below this, stop there
    judge_prompt: str | None = None  # the judge's prompt and rubric, a file (default: dgm/engine/prompts/judge.md)
    workers: int = 2
    max_evals: int | None = 200
    max_expansions: int | None = None
    budget_usd: float | None = None
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)  # model -> $ per million (prompt, completion)
    max_hours: float | None = None
    job_tokens: int | None = 400_000  # model tokens one job may spend
    max_call_tokens: int = 16_384  # completion tokens one model call may ask for (the gateway's clamp)
    max_request_bytes: int = 4 * 2**20  # the largest request body the gateway reads
    job_concurrency: int = 4  # model calls one job may have in flight
    backend: str = "bwrap"  # sandbox backend
    seed: int = 0
    solve_timeout_s: float = 900.0
    improve_timeout_s: float = 1800.0
    job_attempts: int = 3  # tries of a job that fails for infrastructure reasons
    fm_attempts: int = 5  # tries of one model call (429, 5xx, resets, timeouts)
    fm_timeout_s: float = 300.0  # one model call's time limit
    fm_backoff_s: float = 1.0  # first wait between tries (doubling, with jitter)
    grace_s: float = 120.0  # when stopping, how long in-flight jobs may still finish
    phantom: str = "flag"  # a diagnosis citing what did not happen: flag (recorded, shown) | reject (invalid)
    tampered_parents: bool = False  # may an agent whose grading was tampered or gamed become a parent?
    executor: str = "threads"  # where jobs run: threads (a pool here) or ray (a cluster)
    ray_address: str | None = None  # the Ray cluster to join (default: RAY_ADDRESS, else the local one)
    seed_agent: str | None = None  # node 1: an agent folder or RUN:NODE (default: the shipped seed agent)

    def _check_types(self) -> None:
        """Each value has its field's type (a TOML file can hold anything)."""
        checks = {
            "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
            "float": (lambda v: isinstance(v, int | float) and not isinstance(v, bool), "a number"),
            "str": (lambda v: isinstance(v, str), "text"),
            "bool": (lambda v: isinstance(v, bool), "true or false"),
            "tuple[int, ...]": (
                lambda v: all(isinstance(x, int) and not isinstance(x, bool) for x in v),
                "a list of whole numbers",
            ),
            "dict[str, tuple[float, float]]": (lambda v: isinstance(v, dict), "a table of MODEL = [IN, OUT]"),
            "dict[str, str]": (
                lambda v: isinstance(v, dict) and all(isinstance(m, str) and m for m in v.values()),
                'a table of ROLE = "model name"',
            ),
        }
        for f in dataclasses.fields(self):
            value, kind = getattr(self, f.name), str(f.type).removesuffix(" | None")
            if value is None and str(f.type).endswith("| None"):
                continue
            ok, want = checks[kind]
            if not ok(value):
                raise ConfigError(f"config: {f.name} = {value!r} is not valid; expected {want}")

    def validated(self) -> RunConfig:
        from ..suites.loaders import parse_spec

        self._check_types()
        from .admission import AdmissionError, make_admission
        from .citations import POLICIES as PHANTOM
        from .final import RULES
        from .policies import POLICIES
        from .selectors import SELECTORS
        from .utilities import Schedule, UtilityError

        checks = [
            (self.mode in POLICIES, "mode", f"one of {', '.join(POLICIES)}"),
            (self.selector is None or self.selector in SELECTORS, "selector", f"one of {', '.join(SELECTORS)}"),
            (self.final_rule in RULES, "final_rule", f"one of {', '.join(RULES)}"),
            (self.phantom in PHANTOM, "phantom", f"one of {', '.join(PHANTOM)}"),
            (self.workers >= 1, "workers", "at least 1"),
            (0 < self.alpha <= 1, "alpha", "in (0, 1]"),
            (0 <= self.cooldown < 1, "cooldown", "in [0, 1)"),
            (self.children >= 1, "children", "at least 1"),
            (self.group_size >= 1, "group_size", "at least 1"),
            (0 <= self.recombine <= 1, "recombine", "in [0, 1]"),
            (self.judge_first is None or 0 <= self.judge_first <= 1, "judge_first", "a score in [0, 1]"),
            (parse_spec(self.benchmark)[2] in (None, "dev", "test"), "benchmark", "SUITE[:dev|:test]"),
            (
                any(getattr(self, k) is not None for k in LIMITS),
                "max_evals",
                "a limit: a run needs at least one of max_evals, max_expansions, budget_usd, max_hours",
            ),
            (self.max_call_tokens >= 1, "max_call_tokens", "at least 1"),
            (self.max_request_bytes >= 1024, "max_request_bytes", "at least 1024"),
            (self.job_concurrency >= 1, "job_concurrency", "at least 1"),
        ]
        for ok, key, want in checks:
            if not ok:
                raise ConfigError(f"config: {key} = {getattr(self, key)!r} is not valid; expected {want}")
        try:
            make_admission(self.admission)
        except AdmissionError as exc:
            raise ConfigError(f"config: {exc}") from None
        try:
            Schedule.parse(self.epochs, self.utility)
        except UtilityError as exc:
            raise ConfigError(f"config: {exc}") from None
        if self.judge_prompt is not None:
            check_judge_prompt(Path(self.judge_prompt))
        if self.epochs and self.epochs.partition(":")[2].strip() and self.utility != "tests":
            raise ConfigError("config: utility and epochs both name utilities; give the schedule in epochs alone")
        unknown = sorted(set(self.models) - set(ROLES))
        if unknown:
            raise ConfigError(f"config: models.{unknown[0]} is not a role; the roles are {', '.join(ROLES)}")
        for model, pair in self.prices.items():
            if not _price_pair(pair):
                raise ConfigError(
                    f"config: prices.{model} = {pair!r} is not valid; expected [IN, OUT], dollars per million "
                    "prompt and completion tokens (numbers, not negative)"
                )
        return self

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> RunConfig:
        """The configuration a run stored in its archive (`to_dict`'s form), as it was."""
        return cls(**_coerce(stored, "the archive's run"))

    @classmethod
    def for_archive(cls, archive) -> RunConfig:
        """The configuration an archive's summaries read: the stored run's; for an archive
        built through the Python API (no stored run, or one without a benchmark), the
        defaults with the benchmark its evaluations are on: the label with the most of them,
        transfer evaluations (SUITE@MODEL) aside."""
        stored = archive.run_config() or {}
        config = cls.from_stored(stored)
        if stored.get("benchmark"):
            return config
        counts = archive.db.execute("SELECT benchmark, count(*) FROM evaluations GROUP BY benchmark").fetchall()
        own = [(n, label) for label, n in counts if "@" not in label] or [(n, label) for label, n in counts]
        return dataclasses.replace(config, benchmark=max(own)[1]) if own else config

    def model_for(self, role: str) -> str | None:
        """The model a role's calls go to: its own, else `model` (None: the upstream's first)."""
        return self.models.get(role) or self.model

    @property
    def schedule(self):
        """The run's utilities by epoch (utilities.Schedule)."""
        from .utilities import Schedule

        return Schedule.parse(self.epochs, self.utility)

    @property
    def selector_name(self) -> str:
        from .policies import POLICIES

        return self.selector or POLICIES[self.mode].default_selector

    def to_dict(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(self).items()}


FIELDS = {f.name for f in dataclasses.fields(RunConfig)}


def _coerce(values: dict[str, Any], source: str) -> dict[str, Any]:
    unknown = set(values) - FIELDS
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(FIELDS))}")
    out = dict(values)
    if isinstance(out.get("stages"), str):  # the command line's "10,25"
        out["stages"] = out["stages"].split(",")
    if "stages" in out:
        try:
            out["stages"] = tuple(int(s) for s in out["stages"])
        except (TypeError, ValueError):
            raise ConfigError(f"{source}: stages = {values['stages']!r} is not valid; expected whole numbers") from None
    if isinstance(out.get("prices"), dict):
        out["prices"] = {str(m): tuple(p) if isinstance(p, list | tuple) else p for m, p in out["prices"].items()}
    return out


def _recipe(name: Any) -> dict[str, Any]:
    """The settings recipe `name` presets (below the config file and the flags)."""
    from .recipes import RECIPES

    if name is None:
        return {}
    if name not in RECIPES:
        raise ConfigError(f"config: recipe = {name!r} is not valid; expected one of {', '.join(RECIPES)}")
    return dict(RECIPES[name].settings)


def _price_pair(pair: Any) -> bool:
    return (
        isinstance(pair, tuple)
        and len(pair) == 2
        and all(isinstance(x, int | float) and not isinstance(x, bool) and x >= 0 for x in pair)
    )


def load_file(path: Path) -> dict[str, Any]:
    """The [evolve] table of a dgm.toml (or its top level), with its [prices] and [models] tables."""
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    values = dict(data.get("evolve", data))
    for key in ("prices", "models"):  # top-level [prices] and [models] tables
        if "evolve" in data and key in data:
            values[key] = {**data[key], **values.get(key, {})}
    return _coerce(values, str(path))


def resolve(
    file_values: dict[str, Any],
    flags: dict[str, Any],
    stored: dict[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> RunConfig:
    """defaults < stored (a resumed run) < file < flags; flags set to None are absent. Price
    tables merge model by model in the same order. A model left unset is `DGM_MODEL` from
    `environ` (default: this process's environment) when the upstream is an OpenAI-compatible
    endpoint (see `env_model`)."""
    flags = _coerce({k: v for k, v in flags.items() if v is not None}, "flags")
    stored = _coerce(stored or {}, "the archive's run")
    recipe = _recipe(flags.get("recipe") or file_values.get("recipe"))
    merged = {**stored, **recipe, **file_values, **flags}
    for key in ("prices", "models"):  # tables merge entry by entry
        tables = [d.get(key) for d in (stored, file_values, flags) if isinstance(d.get(key), dict)]
        if tables:
            merged[key] = {k: v for table in tables for k, v in table.items()}
    if stored:
        changed = [k for k in FIXED_ON_RESUME if k in merged and _norm(merged[k]) != _norm(stored.get(k))]
        if changed:
            raise ConfigError(
                f"this run was started with other {', '.join(changed)}; a resumed run keeps them "
                f"({', '.join(f'{k}={stored.get(k)!r}' for k in changed)}). Start a new run directory instead."
            )
    environ = os.environ if environ is None else environ
    if merged.get("fm") == "openai" and environ.get("OPENAI_BASE_URL"):  # record the endpoint it will reach
        merged["fm"] = f"openai:{environ['OPENAI_BASE_URL']}"
    if merged.get("model") is None:
        model = env_model(merged.get("fm", RunConfig.fm), environ)
        if model:
            merged["model"] = model
    try:
        return RunConfig(**merged).validated()
    except TypeError as exc:
        raise ConfigError(f"config: {exc}") from exc


def auto_fm(environ: Mapping[str, str]) -> str:
    """`--fm auto`: a configured endpoint if there is one (DGM_FM_URL, OPENAI_BASE_URL or
    OPENAI_API_KEY), else the embedded local model. The endpoint's URL is part of the answer,
    so the stored config records it (the key never is)."""
    url = environ.get("DGM_FM_URL") or environ.get("OPENAI_BASE_URL")
    if url:
        return f"openai:{url}"
    if environ.get("OPENAI_API_KEY"):
        return "openai"
    return "embedded"


def env_model(fm: str, environ: Mapping[str, str]) -> str | None:
    """`DGM_MODEL`: the model to use at an OpenAI-compatible endpoint (`fm` openai[:URL], or
    auto resolving to one); None for other upstreams or when unset."""
    upstream = auto_fm(environ) if fm == "auto" else fm
    return environ.get("DGM_MODEL") or None if upstream.partition(":")[0] == "openai" else None


def _norm(value: Any) -> Any:
    return list(value) if isinstance(value, tuple | list) else value
