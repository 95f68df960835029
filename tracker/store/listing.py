"""Lists of campaigns: each one's first event (its game and name) and its head, read by the
log's (campaign, version) key, the same SQL on every engine."""

from __future__ import annotations

from tracker.store.records import CampaignRow, campaign_rows


class CampaignListing:
    """Rows of campaigns for lists and pages (`CampaignRow`), engine-neutral like
    `LogReading`: it asks the engine's `query` and `field`, and its `LIKE`."""

    # The operator that matches a pattern without regard to the case of ASCII letters.
    LIKE: str = "LIKE"

    def campaigns(self) -> list[CampaignRow]:
        """One row per campaign: its system and name (from its first event), version, head,
        in the order the campaigns were started."""
        return campaign_rows(
            self.query(
                f"""
                SELECT {self._first_fields()}, f.recorded_at, h.version, h.hash
                FROM events f
                JOIN (SELECT campaign, max(version) AS version FROM events GROUP BY campaign) m
                    ON m.campaign = f.campaign
                JOIN events h ON h.campaign = m.campaign AND h.version = m.version
                WHERE f.version = 1
                ORDER BY f.position
                """
            )
        )

    def campaign(self, campaign: str) -> CampaignRow | None:
        """The row of one campaign, or None: its first event and its head, found by the
        log's (campaign, version) key, whatever the log holds besides."""
        rows = self._rows_of("SELECT ? AS campaign", (campaign,))
        return rows[0] if rows else None

    def _first_fields(self) -> str:
        """The campaign, game and name of a first event `f` (its data never changes)."""
        return f"f.campaign, {self.field('f.data', 'system')}, {self.field('f.data', 'name')}"

    def _rows_of(self, ids: str, args: tuple | list, tail: str = "") -> list[CampaignRow]:
        """The rows of the campaigns whose ids the query `ids` gives, in one query, each
        read by the log's (campaign, version) key: its first event and its head."""
        return campaign_rows(
            self.query(
                f"""
                SELECT {self._first_fields()}, f.recorded_at, h.version, h.hash
                FROM ({ids}) ids
                JOIN events f ON f.campaign = ids.campaign AND f.version = 1
                JOIN events h ON h.campaign = ids.campaign AND h.version = (
                    SELECT max(m.version) FROM events m WHERE m.campaign = ids.campaign)
                {tail}
                """,
                args,
            )
        )

    def campaign_page(
        self,
        among: list[tuple[str, tuple]],
        *,
        search: str = "",
        game: str = "",
        after: str | None = None,
        before: str | None = None,
        limit: int = 50,
    ) -> tuple[list[CampaignRow], bool]:
        """A page of campaigns by id (A to Z): those that any of the queries `among` gives
        (each `(sql, args)` selecting a column `campaign`: the caller's own tables, which
        the store does not know), whose name or id holds `search` (whatever the case of its
        ASCII letters) and whose game is `game` (when given), after the id `after` (or
        before the id `before`, the page just before it); and whether there are more beyond
        the page (after it, or before it when paging back).

        Each query of `among` is read in the order of the id from the cursor on, at most a
        page of it: a page costs what it shows (plus what the search passes over), not what
        the database holds, provided each query is read by an index on its ids."""
        back = before is not None
        cursor, order = (before, "DESC") if back else (after, "ASC")
        arms, params = [], []
        where, these = self._page_filter(search, game, cursor, back)  # the same for each
        for sql, args in among:
            arms.append(
                f"SELECT campaign FROM (SELECT a.campaign FROM ({sql}) a "
                f"JOIN events f ON f.campaign = a.campaign AND f.version = 1 "
                f"WHERE {where} ORDER BY a.campaign {order} LIMIT ?) arm{len(arms)}"
            )
            params += [*args, *these, limit + 1]
        ids = " UNION ".join(arms)
        tail = f"ORDER BY ids.campaign {order} LIMIT ?"
        rows = self._rows_of(ids, [*params, limit + 1], tail)
        more = len(rows) > limit
        rows = rows[:limit]
        return (rows[::-1] if back else rows), more

    def _page_filter(self, search: str, game: str, cursor: str | None, back: bool):
        """The WHERE of one query of a page of campaigns, and its arguments."""
        where, params = ["1 = 1"], []
        if cursor is not None:
            where.append("a.campaign < ?" if back else "a.campaign > ?")
            params.append(cursor)
        if search:
            escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append(
                f"({self.field('f.data', 'name')} {self.LIKE} ? ESCAPE '\\'"
                f" OR a.campaign {self.LIKE} ? ESCAPE '\\')"
            )
            params += [f"%{escaped}%"] * 2
        if game:
            where.append(f"{self.field('f.data', 'system')} = ?")
            params.append(game)
        return " AND ".join(where), params
