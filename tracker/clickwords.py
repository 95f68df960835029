"""Click's own words that a user of the command line meets, so that `pybabel extract` puts them
in our catalogue.

Click looks its words ("Usage:", "Missing argument", "No such command 'x'.") up with the
standard library's `gettext`, which the command line points at our catalogue in its language
(`commandline.speak`). Click's source is not extracted, so its msgids are restated here,
exactly as click spells them (click 8.x). Nothing imports this module: it only holds msgids.
Left out: the editor, shell completion, Windows, colours, prompts, progress bars, and the
errors only a developer declaring a command meets.
"""

from tracker.systems.i18n import N_, ngettext

WORDS = (
    # The help.
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Positional arguments"),
    N_("Show this message and exit."),
    N_("default: {default}"),
    # A usage error, as click shows one.
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Aborted!"),
    # Commands and options.
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("No such option {name!r}."),
    ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 1),
    N_("Option {name!r} does not take a value."),
    ngettext(
        "Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 1
    ),
    N_("Argument {name!r} takes {nargs} values."),
    ngettext(
        "Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 1
    ),
    N_("Missing argument"),
    N_("Missing option"),
    # Values.
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Choose from:\n\t{choices}"),
    ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 1),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    # Paths: {name} is "file", "directory" or "path", capitalised.
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
    N_("{name} {filename!r} is not executable."),
)
