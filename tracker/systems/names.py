"""Names typed in any alphabet: kept in one form (NFC), compared by a key that look-alike
forms of the same name share, and refused when they hold a character nobody can see."""

from __future__ import annotations

import unicodedata

from tracker.systems.i18n import N_, Said, _

# Characters that change nothing a reader sees, or turn the text around them: each named, so
# that a refusal says which one crept in (pasted from a chat, typed by a keyboard's layout).
INVISIBLE = {
    "\u00ad": N_("a soft hyphen"),
    "\u034f": N_("a combining grapheme joiner"),
    "\u061c": N_("an Arabic letter mark"),
    "\u115f": N_("a Hangul filler"),
    "\u1160": N_("a Hangul filler"),
    "\u180e": N_("a Mongolian vowel separator"),
    "\u200b": N_("a zero-width space"),
    "\u200c": N_("a zero-width non-joiner"),
    "\u200d": N_("a zero-width joiner"),
    "\u200e": N_("a left-to-right mark"),
    "\u200f": N_("a right-to-left mark"),
    "\u2028": N_("a line separator"),
    "\u2029": N_("a paragraph separator"),
    "\u2060": N_("a word joiner"),
    "\u3164": N_("a Hangul filler"),
    "\ufeff": N_("a zero-width no-break space"),
    "\uffa0": N_("a Hangul filler"),
}
INVISIBLE.update(dict.fromkeys("\u202a\u202b\u202c\u202d\u202e", N_("a bidirectional override")))
INVISIBLE.update(dict.fromkeys("\u2066\u2067\u2068\u2069", N_("a bidirectional isolate")))
INVISIBLE.update(dict.fromkeys("\u2061\u2062\u2063\u2064", N_("an invisible operator")))

# A text of several lines (a reason, notes) keeps its line ends and tabs.
WHITESPACE = "\t\n\r"


def normal(text: str) -> str:
    """`text` in its composed form (NFC): "Tomáš" typed with a combining accent is stored as
    the same letters as "Tomáš" typed at once, and its length counts letters."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def key(name: str) -> str:
    """What two forms of one name share, to compare them: compatibility forms folded (NFKC:
    full-width letters, ligatures) and case folded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def unseen(text: str) -> tuple[str, Said] | None:
    """The first character of `text` that a reader cannot see, and its name ("a zero-width
    space"), or None. Tabs and line ends pass; so do spaces of every width."""
    if text.isascii() and text.isprintable():
        return None
    for char in text:
        if char in INVISIBLE:
            return char, _(INVISIBLE[char])
        if char in WHITESPACE or char.isprintable():
            continue
        kind = unicodedata.category(char)
        if kind == "Zs":
            continue
        if kind == "Cc":
            return char, _("a control character")
        if kind == "Co":
            return char, _("a private-use character")
        if kind == "Cn":
            return char, _("a character with no meaning yet")
        return char, _("an invisible character")
    return None


def refusal(field: str, text: str) -> Said | None:
    """Why `text`, typed as `field`, is refused (a character nobody sees, named), or None."""
    found = unseen(text)
    if found is None:
        return None
    char, word = found
    code = f"{ord(char):04X}"
    return _(
        "%(field)s holds %(character)s (U+%(code)s): type it again without it",
        field=field,
        character=word,
        code=code,
    )
