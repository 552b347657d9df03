"""``python -m pytest_gameworld.endpoint``: run the loopback model endpoint."""

from __future__ import annotations

from .server import serve_main

if __name__ == "__main__":
    raise SystemExit(serve_main())
