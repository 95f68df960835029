"""Claim: a two-player trick-taking game in two phases, played for factions."""

from .rules import legal_cards
from .system import ClaimSystem

system = ClaimSystem()

__all__ = ["system", "ClaimSystem", "legal_cards"]
