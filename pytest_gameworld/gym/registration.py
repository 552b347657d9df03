"""``GameWorld/<task>-v0`` ids for every task of the shipped catalog, registered with Gymnasium.

Task ids are read from the catalog's file names (tasks/NN-slug/NN_NN.yaml), not by loading the catalog: the
registration runs whenever Gymnasium loads plugins, and costs no YAML parsing. The task's specs are loaded when
an environment is made.
"""

from __future__ import annotations

import gymnasium

from ..catalog.native import default_catalog_dir, task_file_ids

NAMESPACE = "GameWorld"
VERSION = 0


def env_id(task: str) -> str:
    return f"{NAMESPACE}/{task}-v{VERSION}"


def register_envs() -> None:
    """Register every task (once: ids already registered are left as they are). Also the `gymnasium.envs`
    entry point's function."""
    for task in task_file_ids(default_catalog_dir()):
        name = env_id(task)
        if name in gymnasium.registry:
            continue
        gymnasium.register(
            id=name, entry_point="pytest_gameworld.gym.env:GameWorldEnv",
            vector_entry_point="pytest_gameworld.gym.vector:GameWorldVectorEnv",
            kwargs={"task": task}, disable_env_checker=False,
        )
