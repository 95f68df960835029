"""Claim: a two-player trick-taking game in two phases, played for factions."""

from .system import ClaimSystem

system = ClaimSystem()

__all__ = ["system", "ClaimSystem"]
