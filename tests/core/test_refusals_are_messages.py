"""Every refusal and error the tracker raises for a user is a message of the catalogue: no
`raise SomeError("English")` or `raise SomeError(f"...")` anywhere in the tracker, so that
each reads in its reader's language (the pages' pseudo-language test sees the refusals its
forms meet; this sees them all)."""

import ast

from tracker import config

# A programmer's errors, never shown to a user as they are.
PROGRAMMERS = {
    "TypeError",
    "ValueError",
    "KeyError",
    "RuntimeError",
    "AssertionError",
    "NotImplementedError",
    "OperationalError",
    "PartError",
}


def english_raised() -> list[str]:
    found = []
    for path in sorted(config.PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", ""))
            if not name.endswith(("Error", "Violation", "Event", "NotFound", "Refused", "Failed")):
                continue
            if name in PROGRAMMERS:
                continue  # a programmer's error, never shown to a user
            first = node.exc.args[0] if node.exc.args else None
            if isinstance(first, ast.JoinedStr) or (
                isinstance(first, ast.Constant) and isinstance(first.value, str)
            ):
                where = path.relative_to(config.PACKAGE.parent)
                found.append(f"{where}:{node.lineno} {name}({ast.unparse(first)[:60]})")
    return found


def test_no_error_a_user_reads_is_raised_in_english():
    assert english_raised() == []
