"""A --gw-* option's value written after a space must not cost the session its ini file.

pytest looks for its ini file (and so its rootdir) before it loads any plugin: at that moment `--gw-results
/tmp/x` is an unknown flag followed by a free argument, and a free argument that exists on disk counts as a test
path, whose folder decides where the ini file is looked for. The gate, the budget and the model in the user's
pytest.ini would be dropped without a word, and a conftest.py at the old rootdir would no longer apply to the
benchmark's items. Two parts:

- the controller checks, once the options are known, whether reading those values as options would have found
  another ini file or rootdir; if so it stops with one line saying how to write the option (`--gw-results=/tmp/x`);
- the controller hands its workers (pytest-xdist starts them with the controller's arguments, after the
  controller may have created the results folder) the same arguments with every such value joined by `=`,
  which pytest cannot take for a path.
"""

from __future__ import annotations

import copy
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .options import OPTIONS

# Every --gw-* option that takes a value (all but the switches); --gw-resume's value is optional.
VALUE_FLAGS = frozenset(f"--gw-{name}" for name, kind, _, _ in OPTIONS if kind != "bool")
ADDOPTS_ENV = "PYTEST_ADDOPTS"


def spaced_values(args: Sequence[str]) -> list[tuple[str, str]]:
    """(flag, value) for each --gw-* option whose value is the next argument instead of after `=`."""
    return [(arg, args[i + 1]) for i, arg in enumerate(args[:-1])
            if arg in VALUE_FLAGS and not args[i + 1].startswith("-")]


def joined(args: Sequence[str]) -> list[str]:
    """The same arguments with each --gw-* option's spaced value joined to it by `=`."""
    out: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in VALUE_FLAGS and i + 1 < len(args) and not args[i + 1].startswith("-"):
            out.append(f"{arg}={args[i + 1]}")
            skip = True
        else:
            out.append(arg)
    return out


def _given_args(config: Any) -> list[str]:
    """What pytest read when it looked for the ini file: PYTEST_ADDOPTS, then the invocation's arguments."""
    return shlex.split(os.environ.get(ADDOPTS_ENV, "")) + [str(a) for a in config.invocation_params.args]


def ini_problem(config: Any, parser: Any) -> str | None:
    """One line when a spaced --gw-* value moved pytest's rootdir or ini file away from the ones the
    invocation means (found by looking again with the options known), else None."""
    from _pytest.config.findpaths import determine_setup

    given = _given_args(config)
    culprits = [(flag, value) for flag, value in spaced_values(given)
                if os.path.exists(Path(config.invocation_params.dir) / value)]
    if not culprits:
        return None
    ns = parser.parse_known_args(given, namespace=copy.copy(config.option))
    try:
        rootpath, inipath, _, _ = determine_setup(
            inifile=ns.inifilename, override_ini=ns.override_ini, args=ns.file_or_dir,
            rootdir_cmd_arg=ns.rootdir or None, invocation_dir=Path(config.invocation_params.dir))
    except Exception:  # pytest would already have refused these arguments the same way
        return None
    if (rootpath, inipath) == (config.rootpath, config.inipath):
        return None
    flag, value = culprits[0]
    found = f"ini file {config.inipath}" if config.inipath else "no ini file"
    meant = f"ini file {inipath}" if inipath else "no ini file"
    return (f"`{flag} {value}`: pytest took {value} for a test path while it looked for its ini file, so it found "
            f"{found} (rootdir {config.rootpath}) instead of {meant} (rootdir {rootpath}); "
            f"write {flag}={value}")


def hand_workers_joined_args(config: Any) -> None:
    """Make the arguments pytest-xdist passes to its workers (the invocation's, and PYTEST_ADDOPTS, which they
    inherit) carry every --gw-* value after `=`: by the time a worker starts the controller has created the
    results folder, and a spaced value naming it would move the worker's rootdir and lose its ini file."""
    args = [str(a) for a in config.invocation_params.args]
    if spaced_values(args):
        params = config.invocation_params
        config.invocation_params = type(params)(args=joined(args), plugins=params.plugins, dir=params.dir)
    addopts = shlex.split(os.environ.get(ADDOPTS_ENV, ""))
    if spaced_values(addopts):
        os.environ[ADDOPTS_ENV] = shlex.join(joined(addopts))
