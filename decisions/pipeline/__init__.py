"""The claim engine's loop (`loop`), its steps (`steps`) and the state of one run (`run`).

`claim_pipeline_run` is the front door: tasks, the `verify` command and the evaluation call it."""

from decisions.pipeline.loop import claim_fail, claim_pipeline_run, verdict_store
from decisions.pipeline.run import claim_language, lean_rule
from decisions.pipeline.steps import clickdown_link

__all__ = [
    "claim_fail",
    "claim_language",
    "claim_pipeline_run",
    "clickdown_link",
    "lean_rule",
    "verdict_store",
]
