"""Model backends. Import the backend you need from its module; heavy libraries load only there."""

from agentcore.models.base import Model, real_models_allowed, set_real_models_allowed

__all__ = ["Model", "real_models_allowed", "set_real_models_allowed"]
