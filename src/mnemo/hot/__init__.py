"""The per-turn hot path: learn from a user turn, rank known facts, build one rotating system message."""

from mnemo.hot.records import Bullet, TurnResult
from mnemo.hot.window import inject_messages

__all__ = ["Bullet", "TurnResult", "inject_messages"]
