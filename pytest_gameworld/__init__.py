"""pytest-gameworld: the GameWorld benchmark for multimodal game agents as a pytest plugin."""

__version__ = "0.1.0"
