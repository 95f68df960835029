"""The Warcry campaign: warbands, battles and the seven-step aftermath."""

from tracker.systems.warcry.system import Warcry

system = Warcry()
