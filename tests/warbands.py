"""The two Warcry warbands most tests start from: Ironjaws and Crowmarch, four fighters each."""


def two_warbands(player: str = "{name}") -> list[dict]:
    """The events that found both warbands; `player` names each one's player from its name."""
    events = []
    for wid, name in (("iron", "Ironjaws"), ("crow", "Crowmarch")):
        events.append(
            {
                "type": "WarbandFounded",
                "data": {
                    "warband": wid,
                    "name": name,
                    "player": player.format(name=name),
                    "faction": "Ash",
                },
            }
        )
        for i in range(4):
            events.append(
                {
                    "type": "FighterAdded",
                    "data": {
                        "warband": wid,
                        "fighter": f"{wid}-{i}",
                        "name": f"{name} {i}",
                        "runemarks": ["ember"],
                        "leader": i == 0,
                        "points": 100,
                    },
                }
            )
    return events
