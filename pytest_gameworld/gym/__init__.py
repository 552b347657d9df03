"""GameWorld's tasks as Gymnasium environments, single (env.py) and vectorized on one browser (vector.py).

Not pure: it drives the browser, through the benchmark's own sandbox, parser and evaluator. It imports no pytest.
Importing it registers ``GameWorld/<task>-v0`` for every task of the shipped catalog (registration.py).
"""

from .registration import env_id, register_envs

register_envs()

__all__ = ["env_id", "register_envs"]
