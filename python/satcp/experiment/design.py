"""Experiment designs: read a DESIGN.toml, check it, expand it into runs.

A design names a base scenario, the factors and their levels, and how many
replications of each design point to run::

    [design]
    scenario = "../carroll-1client.toml"   # relative to this file
    replications = 5
    seed = 2004                 # the design seed every run seed derives from
    seeds = "independent"       # or "common": common random numbers (below)
    exclude = [{ clients = "1", enhancement = "mixed" }]   # holes in the factorial

    [set]                       # keys every run gets (as `--set` names them)
    duration = "600s"

    [factors]                   # full factorial, first factor varies slowest
    "path.ber" = [1e-7, 1e-6, 1e-5]          # a factor named by a scenario key
    [factors.clients]                        # a named factor: each level is a
    1 = { scenario = "carroll-1client.toml" } # table of keys to set (and, with
    4 = { scenario = "carroll-4client.toml" } # `scenario`, its own base file)

or, instead of the full factorial, an explicit list of ``[[points]]``, each a
table of factor = level. In a key, ``*`` stands for every index of a list
(``flow.*.variant`` sets the variant of every flow).

Seed policy. Run seeds are drawn with numpy's ``SeedSequence`` from the design
seed and a spawn key: ``(point, replication)`` by default, so that every run
has its own independent stream; ``(replication,)`` with ``seeds = "common"``,
so that replication r of every design point sees the same random numbers
(common random numbers: paired comparisons between levels then compare like
with like, as Carroll's Table 6 pairs replications). ``point`` is the index
of the design point in expansion order; changing the factors or their order
therefore changes the seeds, and the stored fingerprint notices.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import os
import pathlib
from dataclasses import dataclass, field
from typing import Any

from ..scenario import ScenarioError, apply_overrides, load_with_origin, normalise_overrides

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["DesignError", "Design", "Factor", "Run", "load_design", "run_seed", "RESERVED"]

#: Columns every results row has; no factor may take one of these names.
RESERVED = frozenset({
    "point", "replication", "seed", "sim_time_s", "events", "flows", "goodput_bps", "goodput_total_bps",
    "bytes_delivered", "retransmits", "timeouts", "fast_retransmits", "segments_sent", "jain_index",
})

_DESIGN_KEYS = {"scenario", "replications", "seed", "seeds", "exclude", "name", "description"}
_TOP_KEYS = {"design", "set", "factors", "points"}
_SEED_POLICIES = ("independent", "common")


class DesignError(ScenarioError):
    """A design that cannot be read or expanded, in one line naming the file and key."""


@dataclass(frozen=True)
class Factor:
    """A factor: ``key`` factors set one scenario key to each level; named
    factors (``key is None``) apply a table of overrides per level label."""

    name: str
    levels: tuple            # level values (key factors) or labels (named factor)
    key: str | None = None   # the factor is this scenario key
    bundles: dict = field(default_factory=dict)   # label -> list of (key, value) for named factors
    keys: tuple = ()         # or: several keys set to the same level value

    @property
    def valued(self) -> bool:
        """Levels are values (not labels of bundles)."""
        return self.key is not None or bool(self.keys)

    def overrides(self, level) -> list[tuple[str, Any]]:
        if self.key is not None:
            return [(self.key, level)]
        if self.keys:
            return [(k, level) for k in self.keys]
        return list(self.bundles[level])


@dataclass
class Run:
    """One simulation of a sweep: a design point, a replication and its seed."""

    point: int
    replication: int
    seed: int
    levels: dict            # factor name -> level, in factor order
    scenario: dict          # the scenario tree, seed included

    def task(self) -> dict:
        """What a worker needs (plain data: pickles for processes and Dask)."""
        return {"point": self.point, "replication": self.replication, "seed": self.seed,
                "levels": self.levels, "scenario": self.scenario}


@dataclass
class Design:
    file: str | None
    text: str
    factors: list[Factor]
    replications: int
    seed: int
    common_random_numbers: bool
    points: list[dict]              # factor name -> level, in point order
    base: dict                      # the base scenario tree
    base_file: str | None
    fixed: list[tuple[str, Any]]    # [set] and --set overrides, in order
    name: str | None = None
    _bases: dict = field(default_factory=dict, repr=False)   # scenario path -> tree

    @property
    def factor_names(self) -> list[str]:
        return [f.name for f in self.factors]

    def levels(self) -> dict[str, list]:
        """Each factor's levels in design order (for tables and plots)."""
        out = {}
        for f in self.factors:
            seen = list(f.levels)
            for p in self.points:  # explicit points may use values not listed
                if p[f.name] not in seen:
                    seen.append(p[f.name])
            out[f.name] = seen
        return out

    def scenario_for(self, point: dict) -> dict:
        """The scenario tree of one design point (without its seed)."""
        tree = self.base
        origin = self.base_file
        pairs: list[tuple[str, Any]] = []
        for f in self.factors:
            for key, value in f.overrides(point[f.name]):
                if key == "scenario":
                    tree, origin = self._bases[value]
                else:
                    pairs.append((key, value))
        tree = copy.deepcopy(tree)
        where = ", ".join(f"{name}={_show(level)}" for name, level in point.items())
        try:
            tree = _apply(tree, self.fixed)
            tree = _apply(tree, pairs)
        except ScenarioError as e:
            raise DesignError(f"design point ({where}): {e.message}", key=e.key, file=self.file) from None
        return tree

    def runs(self) -> list[Run]:
        """Every run, point-major then replication, with its seed."""
        out = []
        for index, point in enumerate(self.points):
            tree = self.scenario_for(point)
            for rep in range(self.replications):
                seed = run_seed(self.seed, index, rep, common=self.common_random_numbers)
                scenario = dict(tree)
                scenario["seed"] = seed
                out.append(Run(index, rep, seed, dict(point), scenario))
        return out

    def fingerprint(self, runs: list[Run] | None = None) -> str:
        """A hash of everything that decides the rows: every run's point,
        replication, levels, seed and scenario."""
        digest = hashlib.sha256()
        for r in runs if runs is not None else self.runs():
            digest.update(json.dumps([r.point, r.replication, r.seed, r.levels, r.scenario],
                                     sort_keys=True, separators=(",", ":")).encode())
        return digest.hexdigest()


def run_seed(design_seed: int, point: int, replication: int, *, common: bool = False) -> int:
    """The seed of one run: numpy's SeedSequence of the design seed with spawn
    key (point, replication), or (replication,) for common random numbers;
    63 bits, so that it fits every integer column."""
    import numpy as np

    key = (replication,) if common else (point, replication)
    state = np.random.SeedSequence(design_seed, spawn_key=key).generate_state(1, dtype=np.uint64)[0]
    return int(state) >> 1


# ---------------------------------------------------------------- reading


def load_design(path: str | os.PathLike, overrides: list | None = None) -> Design:
    """Reads and checks a DESIGN.toml; ``overrides`` (``["duration=5s"]`` or
    a dict) are applied to every run after the design's own ``[set]``."""
    file = os.fsdecode(path)
    try:
        data = pathlib.Path(file).read_bytes()
    except FileNotFoundError:
        raise DesignError("no such file", file=file) from None
    except IsADirectoryError:
        raise DesignError("is a directory, not a design file", file=file) from None
    except OSError as e:
        raise DesignError(f"cannot read: {e.strerror or e}", file=file) from None
    try:
        text = data.decode("utf-8")
        tree = tomllib.loads(text)
    except UnicodeDecodeError as e:
        raise DesignError(f"not TOML: not UTF-8 text (byte {e.start})", file=file) from None
    except (tomllib.TOMLDecodeError, ValueError, TypeError, RecursionError) as e:
        raise DesignError(f"not TOML: {e}", file=file) from None
    return _design(tree, text, file, overrides)


def _err(message: str, key: str | None, file: str | None) -> DesignError:
    return DesignError(message, key=key, file=file)


def _design(tree: dict, text: str, file: str | None, overrides) -> Design:
    unknown = sorted(set(tree) - _TOP_KEYS)
    if unknown:
        raise _err(f"unknown table; accepted: {', '.join(sorted(_TOP_KEYS))}", unknown[0], file)
    head = tree.get("design")
    if not isinstance(head, dict):
        raise _err("missing [design] table; it names at least the base scenario: scenario = \"FILE.toml\"",
                   "design", file)
    unknown = sorted(set(head) - _DESIGN_KEYS)
    if unknown:
        raise _err(f"unknown key; accepted: {', '.join(sorted(_DESIGN_KEYS))}", f"design.{unknown[0]}", file)

    here = pathlib.Path(file).parent if file else pathlib.Path.cwd()
    bases: dict[str, tuple[dict, str]] = {}

    def base(value: Any, key: str) -> tuple[dict, str]:
        if not isinstance(value, str) or not value.strip():
            raise _err("expected the path of a scenario TOML file, relative to the design file", key, file)
        if value not in bases:
            target = here / value
            try:
                scenario, origin = load_with_origin(pathlib.Path(target))
            except ScenarioError as e:
                raise _err(f"base scenario: {e}", key, file) from None
            bases[value] = (scenario, origin)
        return bases[value]

    if "scenario" not in head:
        raise _err("missing; accepted: the path of a scenario TOML file, relative to the design file",
                   "design.scenario", file)
    base_tree, base_file = base(head["scenario"], "design.scenario")

    replications = head.get("replications", 1)
    if isinstance(replications, bool) or not isinstance(replications, int) or not 1 <= replications <= 100_000:
        raise _err(f"{replications!r}; accepted: a whole number from 1 to 100000", "design.replications", file)
    seed = head.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _err(f"{seed!r}; accepted: a whole number, 0 or more", "design.seed", file)
    policy = head.get("seeds", "independent")
    if policy not in _SEED_POLICIES:
        raise _err(f"{policy!r}; accepted: \"independent\" (a seed per run) or \"common\" "
                   "(common random numbers: replication r has the same seed at every point)", "design.seeds", file)
    name = head.get("name")

    fixed_tree = tree.get("set", {})
    if not isinstance(fixed_tree, dict):
        raise _err("expected a table of scenario keys, such as duration = \"60s\"", "set", file)
    fixed = _flatten(fixed_tree)
    try:
        fixed += normalise_overrides(overrides)
    except ScenarioError as e:
        raise _err(e.message, e.key, file) from None

    factors = _factors(tree.get("factors", {}), file, base)
    points = _points(tree, factors, head.get("exclude"), file)
    design = Design(file=file, text=text, factors=factors, replications=replications, seed=seed,
                    common_random_numbers=policy == "common", points=points, base=base_tree,
                    base_file=base_file, fixed=fixed, name=name if isinstance(name, str) else None,
                    _bases=bases)
    return design


def _flatten(table: dict, prefix: str = "") -> list[tuple[str, Any]]:
    """``{"path": {"ber": 1e-6}}`` as ``[("path.ber", 1e-6)]``; arrays stay whole."""
    out = []
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out += _flatten(v, key)
        else:
            out.append((key, v))
    return out


def _factors(table: Any, file: str | None, base) -> list[Factor]:
    if not isinstance(table, dict):
        raise _err("expected a table: \"KEY\" = [levels] or [factors.NAME] with a table per level", "factors", file)
    factors = []
    for name, spec in table.items():
        where = f"factors.{name}"
        if name in RESERVED or name.startswith(("flow_", "link_")):
            raise _err(f"`{name}` names a results column; choose another factor name", where, file)
        if isinstance(spec, list):
            levels = _check_levels(spec, where, file)
            factors.append(Factor(name=name, levels=tuple(levels), key=name))
        elif isinstance(spec, dict) and "levels" in spec:
            factors.append(_linked(name, spec, where, file))
        elif isinstance(spec, dict):
            if not spec:
                raise _err("a factor needs at least one level", where, file)
            bundles = {}
            for label, settings in spec.items():
                if not isinstance(settings, dict):
                    hint = (f"; a factor named by a dotted scenario key must be quoted: \"{name}.{label}\" = [...]"
                            if isinstance(settings, list) else "")
                    raise _err(f"level `{label}` is not a table of keys to set{hint}", f"{where}.{label}", file)
                pairs = _flatten(settings)
                for key, value in pairs:
                    if key == "scenario":
                        base(value, f"{where}.{label}.scenario")
                bundles[label] = pairs
            factors.append(Factor(name=name, levels=tuple(bundles), bundles=bundles))
        else:
            raise _err("expected an array of levels (\"path.ber\" = [1e-7, 1e-6]) "
                       "or a table of named levels ([factors.NAME] with a table per level)", where, file)
    return factors


def _linked(name: str, spec: dict, where: str, file: str | None) -> Factor:
    """``[factors.ber]`` with ``keys = ["path.ber", "path.return_ber"]`` and
    ``levels = [...]``: one factor setting several keys to the same value."""
    unknown = sorted(set(spec) - {"keys", "levels"})
    if unknown:
        raise _err("unknown key; a factor with `levels` takes `keys` (the scenario keys it sets) and `levels`",
                   f"{where}.{unknown[0]}", file)
    keys = spec.get("keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) and k.strip() for k in keys):
        raise _err("expected an array of the scenario keys this factor sets, such as [\"path.ber\", \"path.return_ber\"]",
                   f"{where}.keys", file)
    if not isinstance(spec["levels"], list):
        raise _err("expected an array of levels", f"{where}.levels", file)
    levels = _check_levels(spec["levels"], f"{where}.levels", file)
    return Factor(name=name, levels=tuple(levels), keys=tuple(keys))


def _check_levels(levels: list, where: str, file: str | None) -> list:
    if not levels:
        raise _err("no levels; accepted: an array of one or more values", where, file)
    seen = []
    for value in levels:
        if isinstance(value, (dict, list)):
            raise _err(f"level {_show(value)} is a table or array; a level is one value "
                       "(use a named factor to set several keys)", where, file)
        if isinstance(value, float) and not math.isfinite(value):
            raise _err(f"level {value} is not a finite number", where, file)
        if not isinstance(value, (str, int, float, bool)):
            raise _err(f"level {_show(value)} is not a string, number or boolean", where, file)
        if any(type(value) is type(s) and value == s for s in seen):
            raise _err(f"level {_show(value)} is listed twice", where, file)
        seen.append(value)
    return seen


def _points(tree: dict, factors: list[Factor], exclude: Any, file: str | None) -> list[dict]:
    explicit = tree.get("points")
    by_name = {f.name: f for f in factors}
    if explicit is None:
        if exclude is not None and not factors:
            raise _err("nothing to exclude: the design has no factors", "design.exclude", file)
        holes = _exclusions(exclude, by_name, file)
        points = []
        for combo in itertools.product(*(f.levels for f in factors)):
            point = dict(zip((f.name for f in factors), combo))
            if not any(all(_same(point[k], v) for k, v in hole.items()) for hole in holes):
                points.append(point)
        if not points:
            raise _err("every combination of levels is excluded", "design.exclude", file)
        return points

    if exclude is not None:
        raise _err("exclude applies to the full factorial; with [[points]] list only the points wanted",
                   "design.exclude", file)
    if not isinstance(explicit, list) or not explicit or not all(isinstance(p, dict) for p in explicit):
        raise _err("expected one or more [[points]] tables of factor = level", "points", file)
    names = None
    points = []
    for i, raw in enumerate(explicit):
        where = f"points.{i}"
        point = dict(_flatten_point(raw))
        if names is None:
            names = list(point)
        if set(point) != set(names):
            raise _err(f"names factors {sorted(point)}; every point must name the same factors {sorted(names)}",
                       where, file)
        for name, level in point.items():
            factor = by_name.get(name)
            if factor is None:  # an undeclared dotted key: a key factor with this level
                factor = Factor(name=name, levels=(), key=name)
                by_name[name] = factor
                factors.append(factor)
            if not factor.valued and not isinstance(level, str) and str(level) in factor.levels:
                level = point[name] = str(level)
            if not factor.valued and level not in factor.levels:
                raise _err(f"level {_show(level)} of factor `{name}` is not defined; accepted: "
                           + ", ".join(map(_show, factor.levels)), f"{where}.{name}", file)
            _check_levels([level], f"{where}.{name}", file)
        points.append({n: point[n] for n in names})
    for f in list(factors):
        if f.name not in names:
            raise _err("declared but no point names it", f"factors.{f.name}", file)
    factors.sort(key=lambda f: names.index(f.name))
    if any(points[i] == points[j] for i in range(len(points)) for j in range(i)):
        raise _err("the same point is listed twice", "points", file)
    return points


def _flatten_point(raw: dict):
    """A point may say ``"path.ber" = 1e-6`` or ``path.ber = 1e-6`` (a nested
    table in TOML); both name the factor ``path.ber``. Named factors' labels
    are plain values, so only key factors nest."""
    for k, v in raw.items():
        if isinstance(v, dict):
            for sub, value in _flatten(v, k):
                yield sub, value
        else:
            yield k, v


def _exclusions(exclude: Any, factors: dict[str, Factor], file: str | None) -> list[dict]:
    if exclude is None:
        return []
    if not isinstance(exclude, list) or not all(isinstance(e, dict) and e for e in exclude):
        raise _err("expected an array of tables of factor = level, such as [{ clients = \"1\", enhancement = \"mixed\" }]",
                   "design.exclude", file)
    holes = []
    for i, hole in enumerate(exclude):
        flat = dict(_flatten_point(hole))
        for name, level in flat.items():
            if name not in factors:
                raise _err(f"no factor `{name}`; accepted: {', '.join(factors)}", f"design.exclude.{i}", file)
            if not any(_same(level, v) for v in factors[name].levels):
                raise _err(f"`{name}` has no level {_show(level)}; accepted: "
                           + ", ".join(map(_show, factors[name].levels)), f"design.exclude.{i}", file)
        holes.append(flat)
    return holes


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b or (str(a) == str(b) and isinstance(a, str) != isinstance(b, str))


def _show(value) -> str:
    return json.dumps(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


# ---------------------------------------------------------------- overrides with `*`


def _apply(tree: dict, pairs: list[tuple[str, Any]]) -> dict:
    """apply_overrides, with ``*`` in a key standing for every index of a list."""
    for key, value in pairs:
        tree = apply_overrides(tree, [(k, value) for k in _expand(tree, key)])
    return tree


def _expand(tree: dict, key: str) -> list[str]:
    if "*" not in key.split("."):
        return [key]
    parts = key.split(".")
    star = parts.index("*")
    node: Any = tree
    for depth, part in enumerate(parts[:star]):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise ScenarioError("no such list to apply `*` to", key=".".join(parts[: depth + 1]))
    if not isinstance(node, list):
        raise ScenarioError("`*` stands for every index of a list, and this is not a list",
                            key=".".join(parts[:star]) or key)
    out = []
    for i in range(len(node)):
        out += _expand(tree, ".".join([*parts[:star], str(i), *parts[star + 1:]]))
    return out
