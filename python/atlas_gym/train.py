"""GRPO training through TRL against the atlas-gym env server.

    python -m atlas_gym.train --config configs/qwen3-1.7b.yaml [--server http://127.0.0.1:4010] [--resume DIR]

(`atlas-gym train` runs it with `--config-json`, the config it already validated.) Without --server it
starts `atlas-gym serve` itself and stops it at the end. Preflight checks come first (preflight.py); a
missing model is built when the config says so (a tiny random Qwen3, configs/tiny-cpu.yaml). The dataset
holds one row per train task, from the server's task listing (the opening messages, plus the split and
index that `reset` reopens); rollouts and tool calls run in TRL (one env-server session per rollout),
rewards come from the server's /score, and every step is logged to <output_dir>/training_log.jsonl. The
final model goes to <output_dir>/final (the LoRA adapter when LoRA is on, plus the merged model in
<output_dir>/merged); Ctrl-C saves a resumable checkpoint to <output_dir>/interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .client import EnvClient, EnvServerError
from .config import ConfigError, TrainConfig, config_from_json, load_config
from .preflight import preflight
from .server_process import EnvServerProcess
from .stats import EarlyStopping
from .trl import Ledger, close_all, make_env_class, use_server_tool_schemas


@dataclass
class TrainResult:
    steps: int
    stopped_early_at: int | None
    log: list[dict[str, Any]]
    output_dir: str
    sessions_opened: list[str]
    sessions_left_open: int


def list_tasks(client: EnvClient, config: TrainConfig) -> dict[str, list[dict[str, Any]]]:
    """The server's listing of each scenario's first `train_tasks` train tasks (of `levels` only, when set)."""
    if config.levels is None:
        return {s: client.tasks(s, "train", n=config.train_tasks) for s in config.scenarios}
    return {s: tasks_at_levels(client, s, config.levels, config.train_tasks) for s in config.scenarios}


def tasks_at_levels(client: EnvClient, scenario: str, levels: list[int], n: int) -> list[dict[str, Any]]:
    """The first `n` train tasks whose level is one of `levels`, in index order (as `eval --levels` takes
    them), listed page by page."""
    kept: list[dict[str, Any]] = []
    start, page = 0, max(3 * n, 32)
    while len(kept) < n:
        tasks = client.tasks(scenario, "train", n=page, start=start)
        if start >= 64 * page and not kept:
            raise ConfigError(f"levels: {scenario} has no train task of level {levels} among its first {start}")
        kept += [t for t in tasks if t["level"] in levels]
        start += page
    return kept[:n]


def tool_rounds(config: TrainConfig, listed: dict[str, list[dict[str, Any]]]) -> int:
    """TRL's max_tool_calling_iterations (one number for the run): the config's `max_turns` when given,
    else the largest turn limit the server states for the dataset's tasks (`max_turns`: the task's call
    budget + 1, src/agent/turn-limit.ts).

    TRL runs the tools of at most this many generations; the tool calls of the generation after the last
    round never reach the env. So the rounds are the task's whole turn limit, not its budget: a call one
    past the budget reaches the env, which records it as past the budget, penalises it and ends the
    episode, exactly as eval does with the same turn limit. With the budget as the limit, a rollout could
    call past the budget for free in training and be penalised for it in eval (GRPO then learned to
    over-call: docs/training.md section 2)."""
    if config.max_turns is not None:
        return config.max_turns
    limits = [task["max_turns"] for tasks in listed.values() for task in tasks]
    if not limits:
        raise ConfigError("no train tasks listed: cannot derive max_turns (set it in the config)")
    return max(limits)


def build_dataset(client: EnvClient, config: TrainConfig, listed: dict[str, list[dict[str, Any]]] | None = None):
    """One row per train task, scenarios interleaved, in the columns `atlas-gym export --format trl` writes:
    the opening messages from the server's task listing as the prompt, then what `reset(**row)` reopens the
    task with (plus `environment`, TRL's routing column, when there are several scenarios)."""
    from datasets import Dataset

    listed = listed if listed is not None else list_tasks(client, config)
    rows = []
    for index in range(config.train_tasks):
        for scenario in config.scenarios:
            task = listed[scenario][index]
            row = {
                "prompt": task["messages"],
                "scenario": scenario,
                "split": "train",
                "index": task["index"],
                "task_id": task["task_id"],
                "seed": task["seed"],
            }
            if len(config.scenarios) > 1:
                row["environment"] = scenario
            rows.append(row)
    return Dataset.from_list(rows)


def ensure_model(client: EnvClient, config: TrainConfig) -> None:
    """Builds the tiny random Qwen3 the config names when its directory is missing (no download): its
    tokenizer learns its merges from the scenarios' own prompts and tool schemas, so rollouts stay short."""
    if config.build_model_if_missing is None or Path(config.model).exists():
        return
    from .testing import build_random_qwen3

    corpus = []
    for scenario in config.scenarios:
        corpus += [json.dumps(t) for t in client.tools(scenario)]
        corpus += [m["content"] for t in client.tasks(scenario, "train", n=4) for m in t["messages"]]
    build_random_qwen3(config.model, size="tiny", seed=config.seed, corpus=corpus)
    print(f"built a tiny random Qwen3 at {config.model} (build_model_if_missing: {config.build_model_if_missing})")


def grpo_args(config: TrainConfig, cuda: bool, rounds: int | None = None):
    from trl import GRPOConfig

    return GRPOConfig(
        output_dir=config.output_dir,
        learning_rate=config.learning_rate,
        beta=config.beta,
        epsilon=config.epsilon,
        epsilon_high=config.epsilon_high,
        loss_type=config.loss_type,
        num_generations=config.num_generations,
        max_completion_length=config.max_completion_length,
        max_tool_calling_iterations=rounds if rounds is not None else config.max_turns,
        temperature=config.temperature,
        chat_template_kwargs={"enable_thinking": config.enable_thinking},
        use_vllm=config.vllm.enabled,
        vllm_mode=config.vllm.mode,
        max_steps=config.max_steps,
        per_device_train_batch_size=config.per_device_train_batch_size,
        gradient_accumulation_steps=config.gradient_accumulation_steps,
        logging_steps=config.logging_steps,
        save_strategy="steps",
        save_steps=config.save_steps,
        seed=config.seed,
        report_to=list(config.report_to) or "none",
        use_cpu=not cuda,
        bf16=cuda,
        gradient_checkpointing=cuda,
        model_init_kwargs={"dtype": "bfloat16"} if cuda and config.lora else None,
    )


def lora_config(config: TrainConfig):
    if config.lora is None:
        return None
    from peft import LoraConfig

    return LoraConfig(
        r=config.lora.r,
        lora_alpha=config.lora.alpha,
        lora_dropout=config.lora.dropout,
        target_modules=config.lora.target_modules,
        task_type="CAUSAL_LM",
    )


def run(
    config: TrainConfig,
    client: EnvClient,
    prepare: Callable[[Any], None] | None = None,
    save: bool = True,
    resume: str | None = None,
) -> TrainResult:
    """Trains (from `resume`, a checkpoint-N/ or interrupted/ directory, when given); `prepare(trainer)`
    runs just before training (the tests script generation there)."""
    known = {s["id"] for s in client.scenarios()}  # before the slow imports: a bad setup fails fast
    unknown = [s for s in config.scenarios if s not in known]
    if unknown:
        raise ConfigError(
            f"scenarios: unknown on this server: {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    ensure_model(client, config)
    import torch
    from trl import GRPOTrainer

    from .training_log import TrainingLogCallback

    ledger = Ledger()
    classes = {s: make_env_class(client, s, config.reward_mode, ledger) for s in config.scenarios}
    factory = next(iter(classes.values())) if len(classes) == 1 else classes
    cuda = torch.cuda.is_available()
    early = config.early_stopping
    log = TrainingLogCallback(
        ledger,
        config.num_generations,
        config.output_dir,
        EarlyStopping(early.window, early.threshold) if early else None,
        resumed_at=_checkpoint_step(resume),
    )
    listed = list_tasks(client, config)
    trainer = GRPOTrainer(
        model=config.model,
        args=grpo_args(config, cuda, tool_rounds(config, listed)),
        train_dataset=build_dataset(client, config, listed),
        environment_factory=factory,
        peft_config=lora_config(config),
        callbacks=[log],
    )
    if config.prompt_tools == "server":
        use_server_tool_schemas(trainer, client, config.scenarios)
    Path(config.output_dir, "train_config.json").write_text(json.dumps(asdict(config), indent=2))
    try:
        if prepare is not None:
            prepare(trainer)
        try:
            trainer.train(resume_from_checkpoint=resume)
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see main): keep what was learned so far
            if save:
                save_interrupted(trainer, config)
            raise
        if save:
            save_final(trainer, config)
    finally:
        left = sum(close_all(cls) for cls in classes.values())
    return TrainResult(
        steps=trainer.state.global_step,
        stopped_early_at=log.stopped_early_at,
        log=log.lines,
        output_dir=config.output_dir,
        sessions_opened=list(ledger.sessions_opened),
        sessions_left_open=left,
    )


def run_recipe(config: TrainConfig, client: EnvClient, resume: str | None = None) -> TrainResult:
    """GRPO, with the learning recipe's stages around it when the config asks for them (recipe.py): the
    warm start when `model` is missing, and the before/after evaluation."""
    from . import recipe

    if config.warm_start is not None and not Path(config.model, "config.json").exists():
        recipe.warm_start_stage(config, client)
    evaluations = {}
    record = Path(config.output_dir, recipe.EVALUATION)
    if config.evaluate is not None:
        evaluations = json.loads(record.read_text()) if resume and record.exists() else {}
        if "before" not in evaluations:
            evaluations["before"] = recipe.evaluate_stage(config, config.model, "before")
            recipe.write_evaluation(config.output_dir, evaluations)
    result = run(config, client, resume=resume)
    if config.evaluate is not None:
        evaluations["after"] = recipe.evaluate_stage(config, Path(config.output_dir, "final"), "after")
        recipe.write_evaluation(config.output_dir, evaluations)
        evaluations["change"] = recipe.change_stage(config)
        recipe.write_evaluation(config.output_dir, evaluations)
    return result


def save_interrupted(trainer, config: TrainConfig) -> None:
    """A full checkpoint (model, optimizer, scheduler, RNG, trainer state) in <output_dir>/interrupted,
    so `--resume <output_dir>/interrupted` continues where Ctrl-C stopped the run."""
    target = Path(config.output_dir, "interrupted")
    trainer._save_checkpoint(trainer.model, trial=None)  # transformers' own checkpoint writer (pinned)
    written = Path(config.output_dir, f"checkpoint-{trainer.state.global_step}")
    shutil.rmtree(target, ignore_errors=True)
    shutil.move(str(written), str(target))


def _checkpoint_step(resume: str | None) -> int | None:
    if resume is None:
        return None
    return int(json.loads(Path(resume, "trainer_state.json").read_text()).get("global_step", 0))


def save_final(trainer, config: TrainConfig) -> None:
    """Saves the trained model; with LoRA, also a merged copy that vLLM can serve directly."""
    final = Path(config.output_dir, "final")
    trainer.save_model(str(final))
    if config.lora is None:
        return
    merged = Path(config.output_dir, "merged")
    trainer.model.merge_and_unload().save_pretrained(str(merged))
    # The trainer's tokenizer carries TRL's training chat template; serve with the model's own.
    from transformers import AutoProcessor, AutoTokenizer

    try:
        AutoProcessor.from_pretrained(config.model).save_pretrained(str(merged))
    except (OSError, ValueError, TypeError):
        AutoTokenizer.from_pretrained(config.model).save_pretrained(str(merged))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m atlas_gym.train", description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="training config (YAML), e.g. configs/qwen3-1.7b.yaml")
    source.add_argument("--config-json", help="the config `atlas-gym train --print-config` prints (validated)")
    parser.add_argument(
        "--server",
        help="env server URL (one server, a fleet's from `serve --workers N`, or several comma-separated, "
        "taken in turn); default: start `atlas-gym serve` for this run",
    )
    parser.add_argument("--token", default=os.environ.get("ATLAS_GYM_TOKEN"), help="the env server's bearer token")
    parser.add_argument("--resume", help="a checkpoint-N/ or interrupted/ directory of an earlier run")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config) if args.config else config_from_json(json.loads(args.config_json))
    except (ConfigError, json.JSONDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    problems = preflight(config, args.resume)
    if problems:
        for problem in problems:
            print(f"error: preflight: {problem}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _interrupt)  # `atlas-gym train` forwards Ctrl-C and SIGTERM
    server = None
    try:
        if args.server is None:
            server = EnvServerProcess()
            print(f"atlas-gym env server started at {server.url}", flush=True)
        client = EnvClient(args.server or server.url, token=args.token)
        result = run_recipe(config, client, args.resume)
        print(
            json.dumps(
                {"steps": result.steps, "stopped_early_at": result.stopped_early_at, "output_dir": result.output_dir}
            )
        )
        return 0
    except KeyboardInterrupt:
        where = Path(config.output_dir, "interrupted")
        print(f"interrupted: resumable checkpoint saved to {where} (--resume {where}), sessions closed", file=sys.stderr)
        return 130
    except (ConfigError, EnvServerError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if server is not None:
            server.stop()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
