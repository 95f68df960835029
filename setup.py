"""The build hook that puts the top-level templates/ and events/ into the wheel.

The source tree keeps them beside the package; a built wheel carries them as
tracker/templates and tracker/events, where tracker.config finds them. The rest of the
build is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FOLDERS = ("templates", "events")


class build_with_data(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them where they are
        for name in FOLDERS:
            target = Path(self.build_lib) / "tracker" / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(HERE / name, target)


setup(cmdclass={"build_py": build_with_data})
