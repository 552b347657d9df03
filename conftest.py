"""The repository's own test configuration."""

pytest_plugins = ["pytester"]
