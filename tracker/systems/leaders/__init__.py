"""Leaders: a duel of two players on a hex board, each protecting its Leader."""

from .system import LeadersSystem
from .views import visible_event_data, visible_state

__all__ = ["system", "LeadersSystem", "visible_state", "visible_event_data"]

system = LeadersSystem()
