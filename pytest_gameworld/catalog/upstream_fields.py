"""Fields of an upstream game or task file that the mapping does not know: said, never dropped in silence.

The known fields are those of the upstream format (docs/catalog.md, "Upstream GameWorld checkouts"), including
the ones it reads and we deliberately leave (player_mode, metrics_fields), which docs/catalog.md lists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

GAME = {"game_name", "game_rules", "player_mode", "speed_multiplier", "width", "height", "url", "game_roles"}
ROLE = {"name", "prompt", "computer_use_controls", "semantic_controls"}
PROMPT = {"role_section", "computer_use_controls_section", "semantic_controls_section"}
CUA = {"allowed_keys", "allow_clicks", "hold_duration", "key_durations"}
CONTROL = {"id", "description", "binding", "parameters", "required", "action", "aliases"}
BINDING = {"action", "duration", "key", "keys", "x", "y", "to_x", "to_y", "dx", "dy", "button", "cell_param",
           "cell_bindings", "from_x", "from_y", "text"}
TASK = {"task_id", "game_id", "task_prompt", "task_goal", "game_url_suffix", "evaluator_id", "evaluator_config",
        "task_start_score_field", "task_target_score_field", "max_steps", "pause_during_inference",
        "continue_on_fail"}
EVALUATOR = {"score_field", "aggregate_score_fields", "end_field", "end_value", "terminal_status", "metrics_fields"}


def _unknown(data: Any, known: set[str], file: Path, at: str) -> list[str]:
    if not isinstance(data, dict):
        return []
    return [f"{file}: field '{at}{key}' is not mapped (not a field of the upstream format)"
            for key in sorted(set(map(str, data)) - known)]


def unmapped_game_fields(data: dict[str, Any], file: Path) -> list[str]:
    notes = _unknown(data, GAME, file, "")
    roles = data.get("game_roles")
    for i, role in enumerate(roles if isinstance(roles, list) else []):
        at = f"game_roles[{i}]."
        notes += _unknown(role, ROLE, file, at)
        if isinstance(role, dict):
            notes += _unknown(role.get("prompt"), PROMPT, file, at + "prompt.")
            notes += _unknown(role.get("computer_use_controls"), CUA, file, at + "computer_use_controls.")
            controls = role.get("semantic_controls")
            for j, control in enumerate(controls if isinstance(controls, list) else []):
                notes += _unknown(control, CONTROL, file, f"{at}semantic_controls[{j}].")
                if isinstance(control, dict):
                    notes += _unknown(control.get("binding"), BINDING, file, f"{at}semantic_controls[{j}].binding.")
    return notes


def unmapped_task_fields(data: dict[str, Any], file: Path) -> list[str]:
    return _unknown(data, TASK, file, "") + _unknown(data.get("evaluator_config"), EVALUATOR, file,
                                                     "evaluator_config.")
