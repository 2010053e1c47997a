"""`LlamaCppModel`: a GGUF model run in-process by llama-cpp-python.

- The GGUF's own chat template renders the messages (ChatML when the file has none).
- Every constrained turn is decoded under a grammar made from the turn's JSON Schema (agentcore.turns), so an
  unparseable tool call cannot be produced.
- The prompt is rendered append-only by the loop; llama.cpp then reuses the longest common prefix of its KV cache.
  We compute that prefix ourselves to report cached vs evaluated prompt tokens.
- Several KV states per model (docs/kv-cache.md): conversations that take turns on one model (Tool-Guard's plans
  and validators, the advisor, two chat sessions) would evict each other's state from the one context. Before a
  request, the saved state holding the longest prefix of its prompt is restored (the live one saved first), within
  a memory budget with LRU eviction (`kv_cache_bytes`).
- Calls run in a worker thread behind a per-model lock, so the event loop never blocks. A cancelled call (its
  awaiting task cancelled, or `interrupt_all()` on Ctrl-C) stops within moments: the prompt is evaluated under
  llama.cpp's abort callback (a long prompt on a busy machine takes seconds: Ctrl-C once waited 9.1 s), and
  generation stops at the next token through a stopping criterion.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from agentcore.errors import ContextOverflowError, ModelError, ModelUnavailableError, UserError
from agentcore.grammar import schema_to_gbnf
from agentcore.messages import Message, ModelRequest, ModelResponse, Timings, Usage
from agentcore.models import kvstate, native
from agentcore.models.base import check_real_model_allowed
from agentcore.models.kvstore import KVStore, common_prefix
from agentcore.turns import cut_off_error, response_from_text, turn_schema

CHATML = (
    "{% for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
DEFAULT_KV_CACHE_BYTES = 1 << 30  # ~87k tokens of the 0.5B model's KV (12 KiB each): dozens of contexts
# A saved state is restored only when it holds this many more prompt tokens than the live one: a restore costs
# milliseconds, evaluating a token about 10 ms on a laptop CPU, so below this the churn is not worth it.
MIN_RESTORE_GAIN = 16
_inflight: set[threading.Event] = set()  # the cancel events of running calls, for interrupt_all()
_inflight_lock = threading.Lock()


def interrupt_all() -> None:
    """Stop every in-flight call of every LlamaCppModel (the CLI's Ctrl-C: exiting waits for worker threads)."""
    with _inflight_lock:
        for event in _inflight:
            event.set()


class _Cancelled(Exception):
    """The call was cancelled; nobody awaits its result any more."""


class LlamaCppModel:
    """A local GGUF model. Loading is lazy (first call) and happens in a worker thread."""

    def __init__(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_gpu_layers: int = 0,
        seed: int = 0,
        temperature: float = 0.0,
        kv_cache_bytes: int = DEFAULT_KV_CACHE_BYTES,
        prompt_lookup: int = 0,
        tool_format: str = "json",
    ) -> None:
        self.path = Path(path)
        if not _is_file(self.path):
            raise UserError(f"no such model file: {self.path}")
        _check_settings(n_ctx=n_ctx, n_threads=n_threads, n_gpu_layers=n_gpu_layers, temperature=temperature)
        if kv_cache_bytes < 0:
            raise UserError(f"kv_cache_bytes must be >= 0 (0: keep only the live KV state), got {kv_cache_bytes}")
        if prompt_lookup < 0:
            raise UserError(f"prompt_lookup must be >= 0 (draft tokens per step; 0: off), got {prompt_lookup}")
        if tool_format not in native.TOOL_FORMATS:
            raise UserError(f"tool_format must be one of {', '.join(native.TOOL_FORMATS)}, got {tool_format!r}")
        # "native": the chat template's own tool prompt and call syntax (agentcore.models.native); "json": ours;
        # "native-first": native until the run's first call, then ours.
        self.tool_format = tool_format
        self._name = name or self.path.stem
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.n_gpu_layers = n_gpu_layers
        self.seed = seed
        self.temperature = temperature
        # Prompt-lookup decoding (docs/kv-cache.md): draft this many tokens per step by copying the span that
        # followed the last n-gram's earlier occurrence in the prompt; the model verifies them in one batch.
        self.prompt_lookup = prompt_lookup
        self._llm: Any = None
        self._formatter: Any = None
        self._native: native.ChatTemplate | None = None
        self._lock = threading.RLock()
        self._states: KVStore[kvstate.SeqState] = KVStore(kv_cache_bytes)  # saved KV states besides the live one
        self.kv_stats = kvstate.KVStats()

    @property
    def name(self) -> str:
        return self._name

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    # -- loading -----------------------------------------------------------------------------------------------

    def load(self) -> Any:
        """Load the model (idempotent, thread-safe). Returns the llama_cpp.Llama."""
        check_real_model_allowed(f"LlamaCppModel({self._name})")
        with self._lock:
            if self._llm is None:
                self._llm = self._load_unlocked()
        return self._llm

    def _load_unlocked(self) -> Any:
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        draft = None
        if self.prompt_lookup:
            from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

            draft = LlamaPromptLookupDecoding(num_pred_tokens=self.prompt_lookup)
        try:
            llm = Llama(
                model_path=str(self.path),
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                n_gpu_layers=self.n_gpu_layers,
                seed=self.seed,
                verbose=False,
                draft_model=draft,
            )
        except (ValueError, RuntimeError, OSError) as exc:  # llama_cpp's "Failed to load model from file: ..."
            raise ModelUnavailableError(self._load_failure(exc)) from None
        # llama-cpp-python maps ggml's WARN level to logging.ERROR, so even verbose=False prints warnings on stderr
        # (one per aborted prompt, for instance); our exceptions carry what matters.
        logging.getLogger("llama-cpp-python").setLevel(logging.CRITICAL)
        template = llm.metadata.get("tokenizer.chat_template") or CHATML
        eos = _token_text(llm, llm.token_eos())
        bos = _token_text(llm, llm.token_bos())
        self._formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        if self.tool_format != "json":
            self._native_template(llm)  # a template without native tools fails at load, not at the first turn
        return llm

    def reset_kv(self) -> None:
        """Forget every KV state, live and saved (a benchmark that wants to start cold)."""
        with self._lock:
            self._states.clear()
            if self._llm is not None:
                self._llm.reset()

    @property
    def kv_states(self) -> KVStore[kvstate.SeqState]:
        """The saved KV states (read-only use: their count and bytes)."""
        return self._states

    async def aload(self) -> None:
        await asyncio.to_thread(self.load)

    def _load_failure(self, exc: Exception) -> str:
        if "context" in str(exc):
            return (
                f"llama.cpp could not create a context of n_ctx={self.n_ctx} for {self.path} ({exc});"
                " lower n_ctx (--n-ctx) or free memory"
            )
        return (
            f"llama.cpp could not load {self.path} ({exc}); the file is truncated, corrupt or of an unsupported"
            " architecture: pull it again (agentcore models pull NAME) or pass another .gguf file"
        )

    # -- tokens ------------------------------------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        return len(self.load().tokenize(text.encode(), add_bos=False, special=False))

    def render(self, messages: Sequence[Message]) -> list[int]:
        """The prompt tokens for `messages`, through the chat template."""
        llm = self.load()
        prompt = self._formatter(messages=[{"role": m.role, "content": m.content} for m in messages]).prompt
        return list(llm.tokenize(prompt.encode(), add_bos=not _starts_with_bos(llm, prompt), special=True))

    def _native_template(self, llm: Any) -> native.ChatTemplate:
        """The chat template for native turns, compiled on first use (the JSON format never needs it)."""
        if self._native is None:
            template = llm.metadata.get("tokenizer.chat_template")
            if not native.has_native_tools(template):
                raise UserError(f"tool_format='native': the chat template of {self.path} has no <tool_call> tools")
            eos, bos = _token_text(llm, llm.token_eos()), _token_text(llm, llm.token_bos())
            self._native = native.ChatTemplate(template, eos_token=eos, bos_token=bos)
        return self._native

    def render_native(self, request: ModelRequest) -> list[int]:
        """The prompt tokens of a native-format request: the template's own tool prompt (agentcore.models.native)."""
        llm = self.load()
        messages, tools = native.native_messages(request.messages), native.openai_tools(request.tools)
        prompt = self._native_template(llm).render(messages, tools)
        return list(llm.tokenize(prompt.encode(), add_bos=not _starts_with_bos(llm, prompt), special=True))

    # -- completion --------------------------------------------------------------------------------------------

    async def complete(self, request: ModelRequest) -> ModelResponse:
        check_real_model_allowed(f"LlamaCppModel({self._name})")
        cancelled = threading.Event()
        with _inflight_lock:
            _inflight.add(cancelled)
        try:
            return await asyncio.to_thread(self._complete_blocking, request, cancelled)
        except asyncio.CancelledError:
            cancelled.set()  # the worker stops within moments; the model's lock is free once it returns
            raise
        except _Cancelled:  # interrupt_all() stopped this call
            raise asyncio.CancelledError("interrupted") from None
        finally:
            with _inflight_lock:
                _inflight.discard(cancelled)

    def _complete_blocking(self, request: ModelRequest, cancelled: threading.Event) -> ModelResponse:
        llm = self.load()
        with self._lock:
            if cancelled.is_set():  # cancelled while another call held the model
                raise _Cancelled
            started = time.perf_counter()
            use_native = native.uses_native(self.tool_format, request)
            tokens = self.render_native(request) if use_native else self.render(request.messages)
            if len(tokens) + request.max_tokens > self.n_ctx:
                raise ContextOverflowError(len(tokens), self.n_ctx, request.max_tokens)
            cached = self._resume(llm, tokens)
            _prefill(llm, tokens, cached, cancelled)
            schema = turn_schema(request) if request.constrain and not use_native else None
            grammar = _grammar(json.dumps(schema)) if schema else None
            if use_native:
                grammar = _gbnf_grammar(native.native_gbnf(request))
            output = llm.create_completion(
                prompt=tokens,
                max_tokens=request.max_tokens,
                temperature=self.temperature,
                top_k=1 if self.temperature == 0 else 40,
                repeat_penalty=1.0,
                seed=self.seed,
                grammar=grammar,
                stopping_criteria=_stop_when(cancelled),
            )
            total = time.perf_counter() - started
        if cancelled.is_set():
            raise _Cancelled  # its partial text would only fail to parse
        text = output["choices"][0]["text"]
        usage = Usage(
            prompt_tokens=len(tokens),
            cached_tokens=cached,
            generated_tokens=int(output["usage"]["completion_tokens"]),
            calls=1,
        )
        timings = Timings(total_seconds=total)
        cut_off = output["choices"][0].get("finish_reason") == "length"
        if not use_native:
            return response_from_text(text, request, cut_off=cut_off, usage=usage, timings=timings)
        try:
            content, call = native.parse_native(text, request)
        except ModelError as exc:
            if cut_off:
                raise cut_off_error(request) from exc
            raise
        # native-first: later turns are JSON turns, where this turn must read as the canonical JSON ("" raw).
        raw = text if self.tool_format == "native" else ""
        return ModelResponse(content=content, tool_call=call, raw=raw, usage=usage, timings=timings)

    def _resume(self, llm: Any, tokens: list[int]) -> int:
        """Put the KV state holding the longest prefix of `tokens` in the context; returns how many prompt tokens
        it serves (llama.cpp always re-evaluates at least the last one)."""
        live = _cached_prefix(llm, tokens)
        match = self._states.best(tokens)
        switch = match is not None and match.prefix >= live + MIN_RESTORE_GAIN
        if switch or llm.n_tokens - live >= MIN_RESTORE_GAIN:
            self._save_live(llm)  # this request overwrites it; another conversation may come back to it
        if match is None or not switch:
            return live
        self._states.touch(match.tokens)
        started = time.perf_counter()
        restored = kvstate.restore(llm, match.tokens, match.state)
        self.kv_stats.restores += 1
        self.kv_stats.restore_seconds += time.perf_counter() - started
        # llama.cpp refused the state: evaluate the whole prompt
        return min(match.prefix, len(tokens) - 1) if restored else 0

    def _save_live(self, llm: Any) -> None:
        if self._states.budget == 0:
            return
        started = time.perf_counter()
        snapshot = kvstate.save(llm)
        self.kv_stats.saves += 1
        self.kv_stats.save_seconds += time.perf_counter() - started
        if snapshot is not None:
            self._states.put(kvstate.held_tokens(llm), snapshot)  # may evict a match; its caller holds the state


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name over NAME_MAX, say
        return False


def _check_settings(*, n_ctx: int, n_threads: int | None, n_gpu_layers: int, temperature: float) -> None:
    """Refuse what llama.cpp would crash on or misread (a negative n_ctx wraps around to a huge unsigned int)."""
    wrong = []
    if n_ctx < 1:
        wrong.append(f"n_ctx must be at least 1 token, got {n_ctx}")
    if n_threads is not None and n_threads < 1:
        wrong.append(f"n_threads must be at least 1 (or None: all cores), got {n_threads}")
    if n_gpu_layers < -1:
        wrong.append(f"n_gpu_layers must be -1 (all), 0 (none) or a number of layers, got {n_gpu_layers}")
    if not temperature >= 0:  # also refuses NaN
        wrong.append(f"temperature must be >= 0, got {temperature}")
    if wrong:
        raise UserError("; ".join(wrong))


def _prefill(llm: Any, tokens: list[int], cached: int, cancelled: threading.Event) -> None:
    """Evaluate the prompt past its cached prefix under an abort callback, so that a cancel stops it within one
    graph node; create_completion then finds the whole prompt evaluated and samples at once. Generation runs
    without the callback: a Python call per graph node would slow every token (and wait for the GIL), and the
    stopping criterion already stops it between tokens."""
    import llama_cpp

    llm.n_tokens = cached  # KV entries past the common prefix are stale; llm.eval removes them
    hook = llama_cpp.ggml_abort_callback(lambda _data: cancelled.is_set())
    llama_cpp.llama_set_abort_callback(llm.ctx, hook, None)
    # A draft model makes llama-cpp-python keep the logits of every evaluated token (to verify drafts), but the
    # prompt needs only its last one: without this, each prompt token would cost a vocabulary-wide logits row.
    drafting = getattr(llm, "draft_model", None) is not None
    if drafting:
        llm._logits_all = False
    try:
        llm.eval(tokens[cached:])  # never empty: _cached_prefix leaves at least the last token to evaluate
    except RuntimeError:  # "llama_decode returned 2": aborted; llama.cpp dropped the unfinished batch
        if cancelled.is_set():
            raise _Cancelled from None
        raise
    finally:
        if drafting:
            llm._logits_all = True  # what llama-cpp-python sets whenever it has a draft model
        llama_cpp.llama_set_abort_callback(llm.ctx, llama_cpp.ggml_abort_callback(), None)


def _token_text(llm: Any, token: int) -> str:
    if token < 0:
        return ""
    return str(llm.detokenize([token], special=True).decode("utf-8", errors="ignore"))


def _starts_with_bos(llm: Any, prompt: str) -> bool:
    bos = _token_text(llm, llm.token_bos())
    return bool(bos) and prompt.startswith(bos)


def _cached_prefix(llm: Any, tokens: list[int]) -> int:
    """How many prompt tokens llama.cpp will take from its KV cache (it always re-evaluates at least one)."""
    held = llm._input_ids[: llm.n_tokens].tolist()  # the tokens whose KV state the context holds now
    return min(common_prefix(held, tokens), len(tokens) - 1)


@lru_cache(maxsize=64)
def _grammar(schema_json: str) -> Any:
    return _gbnf_grammar(schema_to_gbnf(json.loads(schema_json)))


@lru_cache(maxsize=64)
def _gbnf_grammar(gbnf: str) -> Any:
    from llama_cpp.llama_grammar import LlamaGrammar

    return LlamaGrammar.from_string(gbnf, verbose=False)


def _stop_when(cancelled: threading.Event) -> Any:
    from llama_cpp import StoppingCriteriaList

    return StoppingCriteriaList([lambda tokens, logits: cancelled.is_set()])
