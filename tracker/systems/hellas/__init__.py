"""Lords of Hellas: heroes, hoplites, hunts, monuments and battles over a board of Lands.

A campaign is a series of games between the same players; the state holds the game under
way (or the last one) and the standings over all games.
"""

from .system import Hellas

system = Hellas()

__all__ = ["system", "Hellas"]
