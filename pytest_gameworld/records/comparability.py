"""What a session changed from the standard protocol, recorded in plan.json and every record (pure).

The standard protocol is the paper's: paused inference, screenshots observed, each task's own step budget,
the model spec as written, the shipped catalog (or an upstream checkout). A session that differs says how in one line, is not
shown beside the published rows, and gets no normalized score against baselines made another way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from ..catalog.specs import STANDARD_OBS
from .run_record import RunRecord

STANDARD_PROTOCOL = "paused"
# Overrides of how the endpoint is reached or bounded: recorded, but what the model sees and does is unchanged.
NEUTRAL_OVERRIDES = ("endpoint.", "timeout_s", "step_timeout_s", "max_retries", "price_per_mtok",
                     "extra.retry_backoff_s", "max_connections")


def endpoint_host(base_url: str | None) -> str:
    """host[:port] of a base URL (no scheme, credentials, path or query); the SDK's default when None."""
    if not base_url:
        return "provider default"
    parts = urlsplit(base_url if "//" in base_url else f"//{base_url}")
    host = parts.hostname or base_url
    return f"{host}:{parts.port}" if parts.port else host


def _plain(value: Any) -> Any:
    """An override's value as recorded: a URL keeps only its host (a query or userinfo may hold a secret)."""
    if isinstance(value, str) and "://" in value:
        return endpoint_host(value)
    return value


def session_facts(*, step_budget: int, task_budgets: Iterable[int], protocol: str, model_overrides: Mapping[str, Any],
                  endpoints: Mapping[str, str], catalog_origin: str, catalog_version: str,
                  shipped_catalog: bool, obs: str = STANDARD_OBS) -> dict[str, Any]:
    """The comparability facts of a session (JSON-able): plan.json keeps them, each record a copy."""
    return {"step_budget": int(step_budget), "task_budgets": sorted({int(b) for b in task_budgets}),
            "protocol": protocol, "obs": obs, "model_overrides": {k: _plain(v) for k, v in sorted(model_overrides.items())},
            "endpoints": dict(sorted(endpoints.items())),
            "catalog": {"origin": catalog_origin, "version": catalog_version, "standard": bool(shipped_catalog)}}


def run_facts(session: Mapping[str, Any], model: str) -> dict[str, Any]:
    """One run's copy of the session's facts: its own model's endpoint only."""
    if not session:
        return {}
    out = {k: v for k, v in session.items() if k != "endpoints"}
    out["endpoint"] = (session.get("endpoints") or {}).get(model, "")
    return out


def deviations(facts: Mapping[str, Any]) -> list[str]:
    """How a session differs from the standard protocol, one phrase each; [] for a standard (or unrecorded) one."""
    out: list[str] = []
    budget, own = int(facts.get("step_budget") or 0), list(facts.get("task_budgets") or [])
    if budget and own != [budget]:
        out.append(f"step budget {budget} instead of each task's own ({', '.join(map(str, own)) or '?'})")
    protocol = facts.get("protocol") or STANDARD_PROTOCOL
    if protocol != STANDARD_PROTOCOL:
        out.append(f"{protocol} protocol instead of {STANDARD_PROTOCOL}")
    obs = facts.get("obs") or STANDARD_OBS
    if obs != STANDARD_OBS:
        out.append(f"observation {obs} instead of {STANDARD_OBS}")
    changed = [f"{k}={v}" for k, v in (facts.get("model_overrides") or {}).items() if not k.startswith(NEUTRAL_OVERRIDES)]
    if changed:
        out.append(f"model spec overridden ({', '.join(changed)})")
    catalog = facts.get("catalog") or {}
    if catalog and not catalog.get("standard", True):
        out.append(f"catalog {catalog.get('origin')}, not the shipped one")
    return out


def session_deviations(plan: Mapping[str, Any] | None, records: Iterable[RunRecord]) -> list[str]:
    """A session's deviations from its plan and every record (an --lf pass may have differed), each once."""
    found: dict[str, None] = {}
    sources = [(plan or {}).get("options", {}).get("comparability") or {}]
    sources += [r.comparability for r in records]
    for facts in sources:
        found.update(dict.fromkeys(deviations(facts)))
    return list(found)


def session_facts_of(plan: Mapping[str, Any] | None, records: Iterable[RunRecord]) -> dict[str, Any]:
    """The facts the plan recorded, else those of the first record that has them ({} for older sessions)."""
    facts = ((plan or {}).get("options") or {}).get("comparability")
    return dict(facts or next((r.comparability for r in records if r.comparability), {}))


def step_budget(plan: Mapping[str, Any] | None, records: Iterable[RunRecord]) -> int:
    """The session's --gw-max-steps (0: each task's own), from the plan or the records."""
    budgets = {int(((plan or {}).get("options") or {}).get("max_steps") or 0)}
    budgets |= {int(r.comparability.get("step_budget") or 0) for r in records}
    return max(budgets)


def normalization_problem(session_budget: int, baselines_budget: int, task_budgets: Iterable[int] = ()) -> str | None:
    """Why a normalized score against these baselines would compare different things, or None."""
    if session_budget == baselines_budget:
        return None
    own = sorted(set(task_budgets))
    made = (f"{baselines_budget} steps" if baselines_budget else
            f"each task's own step budget ({', '.join(map(str, own))} steps)" if own else "each task's own step budget")
    played = f"{session_budget} steps" if session_budget else "each task's own step budget"
    return f"baselines were made at {made}; this session played {played}"
