"""The API as served: the operations of every feature, in the order the schema lists them."""

from __future__ import annotations

from ..authentication.api import router as authentication
from .core import api
from .dealing import router as dealing
from .rounds import router as rounds
from .shoes import router as shoes

api.add_router("", shoes)
api.add_router("", authentication)
api.add_router("", rounds)
api.add_router("", dealing)

__all__ = ["api"]
