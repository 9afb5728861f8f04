"""A local OpenAI-compatible chat server for a small Hugging Face model on CPU, so that `atlas-gym eval`
measures a model trained here through the same env and rewards as any served model:

    python -m atlas_gym.serve_model --model runs/learn-cpu/sft --port 8011 [--name learn-cpu]
    ./bin/atlas-gym eval --model openai:http://127.0.0.1:8011/v1#learn-cpu --split train --n 8 ...

It renders each request exactly as the GRPO rollouts render theirs (TRL's prefix-preserving Qwen3 training
template, thinking off, the request's tools; tool-call arguments as objects), samples with the request's
temperature, top_p, max_tokens and seed, and parses Qwen3's `<tool_call>` blocks into OpenAI tool calls
(a block that is not valid JSON stays in the text, as a server's parser leaves it). `GET /v1/models`
lists the one model. Standard-library HTTP; listens on 127.0.0.1 only. For tiny models: requests are
served one at a time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .warm_start import render

_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.S)


def request_chat(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI wire messages as the chat template takes them (arguments as objects, content as text)."""
    chat = []
    for message in messages:
        entry: dict[str, Any] = {"role": message["role"], "content": message.get("content") or ""}
        if message.get("tool_calls"):
            entry["tool_calls"] = [
                {"type": "function", "function": {"name": c["function"]["name"], "arguments": _arguments(c)}}
                for c in message["tool_calls"]
            ]
        chat.append(entry)
    return chat


def _arguments(call: dict[str, Any]) -> Any:
    raw = call["function"].get("arguments") or "{}"
    try:
        return json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return raw


def calls_so_far(messages: list[dict[str, Any]]) -> int:
    """How many tool calls the request's assistant messages already made (the next one is this + 1)."""
    return sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")


def parse_completion(text: str, previous_calls: int = 0) -> tuple[str, list[dict[str, Any]]]:
    """The text outside valid tool-call blocks, and the calls (OpenAI shape, arguments as JSON text). Ids are
    `call_N`, N the call's 1-based number on the episode (after `previous_calls`), as atlas-gym numbers them
    (src/agent/tool-calls.ts), so they are unique per episode and agree with the trace's numbering."""
    calls, kept, last = [], [], 0
    for match in _CALL.finditer(text):
        try:
            parsed = json.loads(match.group(1))
            name, arguments = parsed["name"], parsed.get("arguments", {})
            if not isinstance(name, str):
                raise TypeError(name)
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
        kept.append(text[last : match.start()])
        last = match.end()
        calls.append(
            {
                "id": f"call_{previous_calls + len(calls) + 1}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        )
    kept.append(text[last:])
    return "".join(kept).strip(), calls


class ModelServer:
    """The loaded model and tokenizer, and the completion of one chat request."""

    def __init__(self, model_dir: str, name: str) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.name = name
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModelForCausalLM.from_pretrained(model_dir).eval()
        self.lock = threading.Lock()

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        torch = self.torch
        ids = render(
            self.tokenizer,
            request_chat(body["messages"]),
            body.get("tools") or None,
            tokenize=True,
            add_generation_prompt=True,
            return_dict=True,
        )["input_ids"]
        temperature = float(body.get("temperature", 1.0))
        # One seed per request and prompt: each turn of an episode is its own draw, and a rerun repeats it.
        digest = hashlib.sha256(f"{body.get('seed', 0)}:{len(ids)}:{ids[-64:]}".encode()).digest()
        with self.lock, torch.no_grad():
            torch.manual_seed(int.from_bytes(digest[:8], "little"))
            output = self.model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                max_new_tokens=int(body.get("max_tokens") or 512),
                do_sample=temperature > 0,
                temperature=temperature if temperature > 0 else None,
                top_p=float(body.get("top_p", 1.0)),
                top_k=0,
                eos_token_id=self.tokenizer.eos_token_id,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        new = output[0, len(ids) :].tolist()
        finished = bool(new) and new[-1] == self.tokenizer.eos_token_id
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        content, calls = parse_completion(text, calls_so_far(body["messages"]))
        message: dict[str, Any] = {"role": "assistant", "content": content or None}
        if calls:
            message["tool_calls"] = calls
        reason = "tool_calls" if calls else ("stop" if finished else "length")
        return {
            "id": f"chatcmpl-{digest.hex()[:12]}",
            "object": "chat.completion",
            "model": self.name,
            "choices": [{"index": 0, "message": message, "finish_reason": reason}],
            "usage": {"prompt_tokens": len(ids), "completion_tokens": len(new), "total_tokens": len(ids) + len(new)},
        }


def make_handler(server: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": server.name, "object": "model"}]})
            else:
                self._send(404, {"error": {"message": f"no route GET {self.path}", "type": "not_found"}})

        def do_POST(self) -> None:
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, {"error": {"message": f"no route POST {self.path}", "type": "not_found"}})
                return
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
                if not isinstance(body.get("messages"), list) or not body["messages"]:
                    raise ValueError("'messages' must be a non-empty list")
                if body.get("model") not in (None, server.name):
                    self._send(404, {"error": {"message": f"model '{body['model']}' is not served here "
                                               f"(this server has '{server.name}')", "type": "not_found"}})
                    return
                self._send(200, server.complete(body))
            except (ValueError, KeyError, TypeError) as error:
                self._send(400, {"error": {"message": f"bad request: {error}", "type": "invalid_request_error"}})

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m atlas_gym.serve_model", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a local model directory (e.g. runs/learn-cpu/sft)")
    parser.add_argument("--port", type=int, default=8011)
    parser.add_argument("--name", help="the model name requests use (default: the directory's name)")
    args = parser.parse_args(argv)
    from pathlib import Path

    if not Path(args.model, "config.json").exists():
        print(f"error: {args.model} is not a model directory (no config.json)", file=sys.stderr)
        return 2
    server = ModelServer(args.model, args.name or Path(args.model).name)
    httpd = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(server))
    print(f"serving {args.model} as '{server.name}' at http://127.0.0.1:{httpd.server_port}/v1", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
