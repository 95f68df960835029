"""The Warcry campaign: warbands, battles and the seven-step aftermath."""

from tracker.systems.warcry.rules import Warcry

system = Warcry()
