"""Monster battles: a hex skirmish of walkers, runners and fliers, kings and castles."""

from .system import MonsterBattles

system = MonsterBattles()

__all__ = ["system", "MonsterBattles"]
