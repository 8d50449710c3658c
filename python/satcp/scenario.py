"""Scenarios as plain dicts: read them from a file, TOML text or a dict, and
override keys by their dotted path (``path.ber``, ``flow.0.variant``).

Everything about what a scenario *means* (known keys, units, ranges) is
checked once, in the simulator; this module only reads and edits the tree,
and reports what it cannot read as a one-line :class:`ScenarioError`.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import os
import pathlib
from collections.abc import Iterable, Mapping
from typing import Any, Union

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["ScenarioError", "load", "apply_overrides", "parse_value", "to_jsonable"]

Source = Union[str, os.PathLike, Mapping]

class ScenarioError(ValueError):
    """A scenario that cannot be read or run, in one line:
    ``FILE: key `path.rate`: what is wrong; accepted: ...``.

    ``file`` and ``key`` are ``None`` when they do not apply.
    """

    def __init__(self, message: str, *, key: str | None = None, file: str | None = None):
        self.message = " ".join(str(message).splitlines()).strip()
        self.key = key or None
        self.file = file
        super().__init__(self._text())

    def _text(self) -> str:
        text = f"key `{_printable(self.key)}`: {self.message}" if self.key else self.message
        return f"{_printable(self.file)}: {text}" if self.file else text

    def in_file(self, file: str | None) -> "ScenarioError":
        """The same error, naming ``file`` (if it does not name one already)."""
        if file is None or self.file is not None:
            return self
        return ScenarioError(self.message, key=self.key, file=file)


def _printable(text: str) -> str:
    """``text`` on one line: control characters escaped as Python writes them."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# ---------------------------------------------------------------- loading


def load(source: Source) -> dict:
    """The scenario as a dict, from a path to a TOML file (``str`` or
    ``pathlib.Path``), TOML text, or a dict (deep-copied)."""
    return load_with_origin(source)[0]


def load_with_origin(source: Source) -> tuple[dict, str | None]:
    """Like :func:`load`, plus the file name errors should mention (or None)."""
    if isinstance(source, Mapping):
        scenario = _copy_tree(source, "")
        return scenario, None
    if isinstance(source, os.PathLike):
        path = os.fsdecode(source)
        return _load_file(path), path
    if isinstance(source, bytes):
        source = _decode(source, None)
    if not isinstance(source, str):
        raise ScenarioError(
            f"cannot read a scenario from {type(source).__name__}; "
            "accepted: a path to a TOML file, TOML text, or a dict"
        )
    if _looks_like_path(source):
        return _load_file(source), source
    return _parse_toml(source, None), None


def _looks_like_path(text: str) -> bool:
    """A one-line string with no ``=`` and no table header is no TOML
    document worth reading (only blank lines and comments are), so it names
    a file."""
    if os.path.isfile(text):
        return True
    stripped = text.strip()
    return bool(stripped) and "\n" not in stripped and "=" not in stripped and not stripped.startswith(("[", "#"))


def _load_file(path: str) -> dict:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise ScenarioError("no such file", file=path) from None
    except IsADirectoryError:
        raise ScenarioError("is a directory, not a scenario file", file=path) from None
    except OSError as e:
        raise ScenarioError(f"cannot read: {e.strerror or e}", file=path) from None
    except ValueError as e:  # a NUL in the name
        raise ScenarioError(f"not a file name: {e}", file=path) from None
    return _parse_toml(_decode(data, path), path)


def _decode(data: bytes, file: str | None) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(f"not TOML: not UTF-8 text (byte {e.start})", file=file) from None


def _parse_toml(text: str, file: str | None) -> dict:
    try:
        tree = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"not TOML: {e}", file=file) from None
    except (ValueError, TypeError, RecursionError) as e:  # pathological input
        raise ScenarioError(f"not TOML: {e}", file=file) from None
    try:
        return _copy_tree(tree, "")
    except ScenarioError as e:
        raise e.in_file(file) from None


# ---------------------------------------------------------------- the tree


def _copy_tree(value: Any, key: str) -> Any:
    """A deep copy holding only what TOML and JSON can both say: tables with
    string keys, arrays, strings, numbers, booleans. Dates and times become
    their ISO text (the simulator then says what it wanted instead)."""
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                where = f"{key}.{k!r}" if key else repr(k)
                raise ScenarioError(f"keys must be strings, not {type(k).__name__}", key=where)
            out[k] = _copy_tree(v, f"{key}.{k}" if key else k)
        return out
    if isinstance(value, (list, tuple)):
        return [_copy_tree(v, f"{key}.{i}") for i, v in enumerate(value)]
    if isinstance(value, bool) or isinstance(value, str) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ScenarioError(f"{value} is not a finite number", key=key)
        return float(value)
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        try:
            plain = item()
        except Exception:
            plain = None
        if isinstance(plain, (bool, int, float, str)):
            return _copy_tree(plain, key)
    raise ScenarioError(f"a {type(value).__name__} is not a scenario value; accepted: a string, number, boolean, array or table", key=key)


def to_jsonable(scenario: Mapping) -> dict:
    """The scenario checked and copied for ``json.dumps`` (no NaN, no dates)."""
    if not isinstance(scenario, Mapping):
        raise ScenarioError(f"a scenario is a table of keys, not a {type(scenario).__name__}")
    return _copy_tree(scenario, "")


# ---------------------------------------------------------------- overrides


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML value (number, boolean, string, array,
    inline table) where it is one, else the plain string (``20s``)."""
    if "\n" in text or "\r" in text:
        return text
    try:
        parsed = tomllib.loads(f"v = {text}")
    except (tomllib.TOMLDecodeError, ValueError, TypeError, RecursionError):
        return text
    if set(parsed) != {"v"}:
        return text
    try:
        return _copy_tree(parsed["v"], "v")
    except ScenarioError:
        return text


def _split_assignment(item: Any) -> tuple[str, Any]:
    if isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], str):
        return item[0], item[1]
    if not isinstance(item, str):
        raise ScenarioError(f"override {item!r}: expected KEY=VALUE, such as path.ber=1e-6")
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise ScenarioError(f"--set `{item}`: expected KEY=VALUE, such as path.ber=1e-6 or flow.0.variant=reno")
    return key.strip(), parse_value(value.strip())


def normalise_overrides(overrides: Mapping | Iterable | None) -> list[tuple[str, Any]]:
    """``{"path.ber": 1e-6}`` or ``["path.ber=1e-6", ...]`` as (key, value) pairs."""
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        pairs = list(overrides.items())
        for key, _ in pairs:
            if not isinstance(key, str):
                raise ScenarioError(f"override key {key!r}: expected a dotted key such as path.ber")
        return pairs
    if isinstance(overrides, (str, bytes)):
        overrides = [overrides.decode() if isinstance(overrides, bytes) else overrides]
    try:
        items = list(overrides)
    except TypeError:
        raise ScenarioError(
            f"overrides: expected a dict or a list of KEY=VALUE strings, not {type(overrides).__name__}"
        ) from None
    return [_split_assignment(item) for item in items]


def apply_overrides(scenario: Mapping, overrides: Mapping | Iterable | None) -> dict:
    """A copy of ``scenario`` with each dotted key set to its value.

    ``overrides`` is a dict (``{"path.ber": 1e-6, "flow.0.variant": "reno"}``,
    values taken as they are) or a list of ``"KEY=VALUE"`` strings (values
    read by :func:`parse_value`, as ``--set`` does). A numeric component
    indexes a list (``flow.0``); missing tables are created.
    """
    tree = to_jsonable(scenario)
    for key, value in normalise_overrides(overrides):
        _set(tree, key, _copy_tree(value, key))
    return tree


def load_overridden(source: Source, overrides: Mapping) -> tuple[str, dict, str | None]:
    """The scenario from ``source`` with keyword ``overrides`` applied (``__``
    standing for ``.`` in their names), as (JSON text, tree, file name for
    errors); a bad key or value raises ScenarioError naming the file."""
    tree, origin = load_with_origin(source)
    pairs = {key.replace("__", "."): value for key, value in overrides.items()}
    try:
        tree = apply_overrides(tree, pairs)
        return json.dumps(tree, allow_nan=False), tree, origin
    except ScenarioError as e:
        raise e.in_file(origin) from None
    except (TypeError, ValueError) as e:  # apply_overrides checks first; belt and braces
        raise ScenarioError(f"cannot encode the scenario: {e}", file=origin) from None


def _set(tree: dict, key: str, value: Any) -> None:
    parts = key.split(".")
    if any(not p.strip() for p in parts):
        raise ScenarioError("empty component in a dotted key; accepted: such as path.ber or flow.0.variant", key=key)
    parts = [p.strip() for p in parts]
    node: Any = tree
    for depth, part in enumerate(parts):
        here = ".".join(parts[: depth + 1])
        parent = ".".join(parts[:depth]) or "the scenario"
        last = depth == len(parts) - 1
        if isinstance(node, list):
            if not part.isdigit():
                raise ScenarioError(f"`{parent}` is a list; index it with a number, such as {parent}.0", key=here)
            index = int(part)
            if index >= len(node):
                count = len(node)
                raise ScenarioError(
                    f"index {index} out of range: `{parent}` has {count} entr{'y' if count == 1 else 'ies'}"
                    + (f"; accepted: 0 to {count - 1}" if count else ""),
                    key=here,
                )
            if last:
                node[index] = value
            else:
                node = node[index]
        elif isinstance(node, dict):
            if last:
                node[part] = value
            elif part in node:
                node = node[part]
            else:
                following = parts[depth + 1]
                if following.isdigit():
                    raise ScenarioError(
                        f"index {following} out of range: the scenario has no `{here}` entries",
                        key=f"{here}.{following}",
                    )
                node[part] = {}
                node = node[part]
        else:
            raise ScenarioError(f"`{parent}` is a value, not a table", key=here)


__all__ += ["normalise_overrides", "load_with_origin"]
