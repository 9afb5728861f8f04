"""verl agent loop for atlas-gym (verl==0.9.1 exactly: the agent-loop helper names move between releases).

One env-server session per trajectory: `run` opens a session for the row's task (`extra_info.task_id` and
`seed`, from `atlas-gym export --format verl`), renders the session's own messages and tool schemas (the
scenario's tool subset, nested schemas intact) with the chat template, then generates → parses tool calls
(verl's `hermes` parser for Qwen3, `qwen3_coder` for Qwen3.5's XML calls: `multi_turn.format`) → calls the
tools on the session → ... until the model answers without a call (the episode terminates), or it is
truncated: by the session's call budget (`budget`), its turn limit (`max_turns`) or the response length
(`response_length`). The turn limit follows the TypeScript rule (src/agent/turn-limit.ts): a user-set
`multi_turn.max_assistant_turns` wins; left null (verl's default), each episode gets its own task's
`limits.max_turns` from the session opening (its call budget + 1), so a workflow task gets more turns than
a single-family one. A truncation is its own end, not a model error: the session is scored as usual and
`ended`/`truncation`/`max_turns` in `reward_extra_info` say how it ended. The reward is the session's `/score` (the same
session the tools changed), returned as `reward_score`, with `passed`, the violation codes and the reward
mode in `reward_extra_info`; the session is deleted in every case. A failed tool call is data for the
model (its error text, as in evaluation and TRL).

verl builds this class for every trajectory, on the AgentLoopWorkers, from the agent-loop config file that
the export writes (`actor_rollout_ref.rollout.agent.agent_loop_config_path`); its keys (`env_url`: one URL
(a single server or a fleet, `serve --workers N`), or several env servers as a list or comma-separated,
taken in turn, `reward_mode`, `token`) arrive as keyword arguments. The token may also come from ATLAS_GYM_TOKEN (set it in Ray's runtime_env).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
from typing import Any

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopMetrics, AgentLoopOutput
from verl.experimental.agent_loop.tool_parser import FunctionCall, ToolParser
from verl.tools.schemas import OpenAIFunctionToolSchema

from .client import EnvClient, EnvServerError, ServerUnreachableError, Session, SessionNotFoundError, env_urls

logger = logging.getLogger(__name__)

_TURNS = itertools.count()
# The name `atlas-gym export --format verl` writes in the agent_name column and the agent-loop config.
AGENT_NAME = "atlas_env"
RESTART_RETRIES = 16  # the client's backoff (0.25 s doubling, at most 5 s a wait): about 63 s in all


class AtlasEnvAgentLoop(AgentLoopBase):
    """A trajectory on one atlas-gym env-server session, scored by that session's /score."""

    def __init__(
        self,
        *args: Any,
        env_url: str | list[str],
        reward_mode: str | None = None,
        token: str | None = None,
        client: EnvClient | None = None,
        **kwargs: Any,
    ):
        kwargs.pop("tools", None)  # verl's own tool list: the tools come from the session instead
        super().__init__(*args, **kwargs)
        # Several env servers (a list, or comma-separated URLs) share the load: trajectories take them in turn.
        urls = env_urls(list(env_url) if not isinstance(env_url, str) else env_url)
        url = urls[next(_TURNS) % len(urls)]
        # A server restarting from its journal (`serve --journal`) is waited for up to about a minute.
        self.client = client or EnvClient(
            url, token=token or os.environ.get("ATLAS_GYM_TOKEN"), restart_retries=RESTART_RETRIES
        )
        self.reward_mode = reward_mode
        multi_turn = self.rollout_config.multi_turn
        self.max_assistant_turns = user_turn_limit(multi_turn.max_assistant_turns)
        self.max_parallel_calls = multi_turn.max_parallel_calls or 1
        self.max_tool_response_length = multi_turn.max_tool_response_length
        self.tool_parser = ToolParser.get_tool_parser(multi_turn.format, self.tokenizer)
        self.response_length = self.rollout_config.response_length

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        session = await asyncio.to_thread(self._open, kwargs.get("extra_info") or {})
        try:
            return await self._episode(session, sampling_params, kwargs.get("uid"))
        finally:
            await asyncio.to_thread(self._close, session.session_id)

    def _open(self, extra_info: dict[str, Any]) -> Session:
        seed = extra_info.get("seed")
        seed = None if seed is None else int(seed)
        if extra_info.get("task_id"):
            return self.client.create_session(task_id=str(extra_info["task_id"]), seed=seed)
        if extra_info.get("scenario") is not None and extra_info.get("task_index") is not None:
            split = str(extra_info.get("split", "train"))
            return self.client.create_session(extra_info["scenario"], split, int(extra_info["task_index"]), seed)
        raise ValueError(
            "atlas_env rows need extra_info.task_id (or scenario, split and task_index): "
            "write the dataset with `atlas-gym export --format verl`"
        )

    def _close(self, session_id: str) -> None:
        try:
            self.client.close_session(session_id)
        except SessionNotFoundError:
            pass
        except EnvServerError as error:  # never hide the trajectory's own exception behind this one
            logger.warning("could not delete env session %s: %s", session_id, error)

    async def _episode(self, session: Session, sampling_params: dict[str, Any], uid: Any) -> AgentLoopOutput:
        messages: list[dict[str, Any]] = [dict(m) for m in session.messages]
        tools = session.tools
        parser_tools = parser_schemas(tools)
        request_id = f"{uid or 'atlas'}/{session.session_id}"  # sticky per trajectory; the uid names its group
        if self.tool_parser.stop_token_ids:
            stops = set(sampling_params.get("stop_token_ids") or []) | set(self.tool_parser.stop_token_ids)
            sampling_params = {**sampling_params, "stop_token_ids": sorted(stops)}
        prompt_ids = await self.ct_build_initial_tokens(messages, tools=tools)
        runtime_ids, mask, logprobs = list(prompt_ids), [], []
        metrics: dict[str, Any] = {"generate_sequences": 0.0, "tool_calls": 0.0}
        turns = calls = errors = 0
        final_message: str | None = None
        truncation = ""  # "" while the episode runs or when it terminates with a final answer
        max_turns = episode_turn_limit(session, self.max_assistant_turns)
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            out = await self.server_manager.generate(
                request_id=request_id, prompt_ids=runtime_ids, sampling_params=sampling_params
            )
            metrics["generate_sequences"] += loop.time() - started
            turns += 1
            merged, mask, merged_logprobs = await self.ct_merge_assistant_token(
                runtime_ids, out.token_ids, mask, logprobs if out.log_probs else None, assistant_logprobs=out.log_probs
            )
            runtime_ids, logprobs = merged.token_ids, merged_logprobs or []
            content, tool_calls = await self.tool_parser.extract_tool_calls(out.token_ids, parser_tools)
            tool_calls = tool_calls[: self.max_parallel_calls]
            messages.append(assistant_message(content, tool_calls))
            if not tool_calls:
                final_message = content
                break
            if len(mask) >= self.response_length:
                truncation = "response_length"
                break
            previous = list(messages)
            started = loop.time()
            spent = False
            for call in tool_calls:
                text, error_type = await asyncio.to_thread(self._call_tool, session.session_id, call)
                calls, errors = calls + 1, errors + (error_type is not None)
                spent = spent or error_type == "budget"
                messages.append({"role": "tool", "content": self._truncate(text)})
            metrics["tool_calls"] += loop.time() - started
            if spent:  # as in evaluation: the call past the budget is recorded, and the rollout ends
                truncation = "budget"
                break
            merged, mask, merged_logprobs = await self.ct_merge_context_msg(
                previous, messages, runtime_ids, mask, logprobs or None, tools=tools
            )
            if len(mask) >= self.response_length:
                truncation = "response_length"
                break
            runtime_ids, logprobs = merged.token_ids, merged_logprobs or []
            if max_turns is not None and turns >= max_turns:  # as in evaluation: this turn's calls ran
                truncation = "max_turns"
                break
        if truncation:
            logger.info("env session %s truncated (%s) after %d turns", session.session_id, truncation, turns)

        score = await asyncio.to_thread(self.client.score, session.session_id, final_message, self.reward_mode)
        response_ids = runtime_ids[len(prompt_ids) :]
        extra = {  # the same keys in every trajectory (verl takes the batch's keys from the first)
            "passed": bool(score.passed),
            "violations": ",".join(str(v.get("code")) for v in score.violations if isinstance(v, dict)),
            "reward_mode": score.mode or self.reward_mode or "paper",
            "tool_calls": calls,
            "tool_errors": errors,
            "ended": "truncated" if truncation else "terminated",
            "truncation": truncation,  # budget, max_turns or response_length; "" when it terminated
            "max_turns": max_turns or 0,  # the turn limit the episode ran under (0: none stated)
            "env_session_id": session.session_id,  # not "session_id": verl's V1 manager uses that column
        }
        return AgentLoopOutput(
            prompt_ids=list(prompt_ids),
            response_ids=response_ids[: self.response_length],
            response_mask=mask[: self.response_length],
            response_logprobs=logprobs[: self.response_length] if logprobs else None,
            reward_score=float(score.reward),
            num_turns=1 + turns + calls,
            metrics=AgentLoopMetrics(**metrics),
            extra_fields={"reward_extra_info": extra},
        )

    def _call_tool(self, session_id: str, call: FunctionCall) -> tuple[str, str | None]:
        """One tool call on the session: (the text the model sees, the error type or None). Malformed
        arguments are sent as the model's raw text (the server answers them with an invalid_args error)."""
        try:
            arguments: Any = json.loads(call.arguments)
        except (json.JSONDecodeError, TypeError):
            arguments = call.arguments
        try:
            result = self.client.call_tool(session_id, call.name, arguments)
        except (SessionNotFoundError, ServerUnreachableError):
            # The session is gone, or its server stayed down past every retry: no reward this trajectory
            # could still get would be the model's, so fail it (and the batch) instead of scoring it.
            raise
        except EnvServerError as error:
            return f"Error: {error}", "env_server"
        return result.text, None if result.ok else (result.error_type or "error")

    def _truncate(self, text: str) -> str:
        limit = self.max_tool_response_length
        if not limit or len(text) <= limit:
            return text
        half = limit // 2
        return text[:half] + "...(truncated)..." + text[-half:]


def user_turn_limit(value: Any) -> int | None:
    """`multi_turn.max_assistant_turns` as a user limit: None when left unset (null), else a positive
    integer (0 or a negative number is refused rather than read as "no limit")."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"multi_turn.max_assistant_turns must be a positive integer or null, got {value!r}")
    return value


def episode_turn_limit(session: Session, user_limit: int | None) -> int | None:
    """Model turns the episode may take (src/agent/turn-limit.ts): the user's limit when set, else the
    session's `limits.max_turns` (a server that does not state one: its call budget + 1; neither: none)."""
    if user_limit is not None:
        return user_limit
    if session.max_turns is not None:
        return int(session.max_turns)
    return None if session.max_tool_calls is None else int(session.max_tool_calls) + 1


def assistant_message(content: str, tool_calls: list[FunctionCall]) -> dict[str, Any]:
    """The assistant turn as the chat template renders it back (OpenAI tool-call shape)."""
    message: dict[str, Any] = {"role": "assistant", "content": content or ""}
    if tool_calls:
        message["tool_calls"] = [
            {"type": "function", "function": {"name": c.name, "arguments": _arguments(c.arguments)}}
            for c in tool_calls
        ]
    return message


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, TypeError):
        return raw


def parser_schemas(tools: list[dict[str, Any]]) -> list[OpenAIFunctionToolSchema]:
    """The tool schemas in the form verl's parsers read (only `qwen3_coder` uses them, to type each XML
    parameter): primitive types are kept; objects, arrays and unions become `object`, which the parser
    decodes as JSON. The prompt itself gets the session's full schemas, not these."""
    schemas = []
    for tool in tools:
        function = tool.get("function", tool)
        parameters = function.get("parameters") or {}
        properties = {}
        for name, spec in (parameters.get("properties") or {}).items():
            kind = spec.get("type") if isinstance(spec, dict) else None
            properties[name] = {
                "type": kind if kind in ("string", "integer", "number", "boolean") else "object",
                "description": (spec.get("description") or "") if isinstance(spec, dict) else "",
            }
        schemas.append(
            OpenAIFunctionToolSchema.model_validate(
                {
                    "type": "function",
                    "function": {
                        "name": function["name"],
                        "description": function.get("description", ""),
                        "parameters": {
                            "type": "object",
                            "properties": properties,
                            "required": parameters.get("required", []),
                        },
                    },
                }
            )
        )
    return schemas
