"""Lazy SDK imports with a clear message, and error classification shared by the Stainless SDKs."""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType
from typing import Any

from ...catalog.providers import SDK_EXTRAS
from ...catalog.specs import CatalogError
from .retry import RETRYABLE_STATUS, Failure, retry_after_seconds


def require(module: str) -> ModuleType:
    """Import a provider SDK or raise CatalogError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        extra = SDK_EXTRAS.get(module, module)
        raise CatalogError(f"the {module} SDK is not installed: pip install 'pytest-gameworld[{extra}]'") from None


async def post_as_built(client: Any, path: str, request: dict[str, Any], cast_to: type) -> Any:
    """POST a request through a Stainless SDK client (its auth, headers, timeout, errors and response types)
    as built, skipping the typed-parameter transform of ``create``: that only renames aliased fields, which
    our requests never use, and walking the whole message history for it costs ~3 ms every step."""
    body = {k: v for k, v in request.items() if k != "extra_body"}
    body.update(request.get("extra_body") or {})
    return await client.post(path, body=body, cast_to=cast_to)


def stainless_failure(sdk: ModuleType, exc: BaseException) -> Failure | None:
    """Classify an openai/anthropic SDK exception (both share one error hierarchy)."""
    if isinstance(exc, sdk.APITimeoutError):
        return Failure("the request timed out", retryable=True)
    if isinstance(exc, sdk.APIConnectionError):
        return Failure(f"cannot connect: {exc}", retryable=True)
    if isinstance(exc, sdk.APIStatusError):
        status = int(exc.status_code)
        headers: Any = getattr(exc.response, "headers", None)
        return Failure(f"HTTP {status}: {_message(exc)}", retryable=status in RETRYABLE_STATUS, status=status,
                       retry_after=retry_after_seconds(dict(headers) if headers is not None else None))
    if isinstance(exc, sdk.APIError):
        return Failure(str(exc), retryable=False)
    return None


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return str(getattr(exc, "message", exc))


class ProviderParameterWarning(UserWarning):
    """A request parameter the installed SDK does not take by name: it is sent in the raw request body."""


def warn_unnamed_parameter(model: str, sdk: str, method: str, name: str, value: Any) -> None:
    """Say, once per run start, that a parameter travels in extra_body because the SDK has no argument for it."""
    warnings.warn(f"{model}: the installed {sdk} SDK's {method} has no {name!r} argument; it is sent in the "
                  f"request body (extra_body) so the request still carries {name}={value!r}",
                  ProviderParameterWarning, stacklevel=2)
