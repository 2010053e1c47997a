"""Memory that outlives a conversation: long-term facts (SQLite), vector recall (chromadb), and experience that
learns from past runs (EvolveR principles). `Memory` is the facade an Agent takes; see docs/memory.md.

Names load lazily: importing this package loads neither chromadb nor onnxruntime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentcore.lazy import lazy_getattr

_EXPORTS = {
    "Memory": "agentcore.memory.facade",
    "MemoryPolicy": "agentcore.memory.policy",
    "MemoryStore": "agentcore.memory.base",
    "MemoryRecord": "agentcore.memory.base",
    "MemoryStoreError": "agentcore.memory.base",
    "SQLiteStore": "agentcore.memory.sqlite_store",
    "ChromaStore": "agentcore.memory.vector_store",
    "MiniLMEmbedder": "agentcore.memory.embeddings",
    "PrincipleBank": "agentcore.memory.principles",
    "Principle": "agentcore.memory.principles",
    "Trajectory": "agentcore.memory.principles",
    "Reflector": "agentcore.memory.reflect",
    "ReflectReport": "agentcore.memory.reflect",
    "XSkill": "agentcore.memory.xskill",
}

if TYPE_CHECKING:
    from agentcore.memory.base import MemoryRecord, MemoryStore, MemoryStoreError
    from agentcore.memory.embeddings import MiniLMEmbedder
    from agentcore.memory.facade import Memory
    from agentcore.memory.policy import MemoryPolicy
    from agentcore.memory.principles import Principle, PrincipleBank, Trajectory
    from agentcore.memory.reflect import Reflector, ReflectReport
    from agentcore.memory.sqlite_store import SQLiteStore
    from agentcore.memory.vector_store import ChromaStore
    from agentcore.memory.xskill import XSkill


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


__all__ = [
    "ChromaStore",
    "Memory",
    "MemoryPolicy",
    "MemoryRecord",
    "MemoryStore",
    "MemoryStoreError",
    "MiniLMEmbedder",
    "Principle",
    "PrincipleBank",
    "ReflectReport",
    "Reflector",
    "SQLiteStore",
    "Trajectory",
    "XSkill",
]
