"""``manage.py`` commands for a test's server, run by one Django process kept for it
(:class:`Manager`): starting Django for each command cost 1-3 s, and a test makes
dozens; and a SQLite database migrated once for the run (:func:`migrated_database`).
The browser tests' servers (tests/browser/browsing.py), the real servers of
tests/served.py and the stacks the deploy and scale-out tests start use them."""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ANSWER = "\0manage.py answers: "  # what starts the manage.py process's answer (a command may print too)

# The manage.py process: reads one command a line (its arguments as a JSON list) and runs
# it as manage.py would (the command's class through call_command, its system checks
# first; a CommandError or any exception a failure), then answers with what it wrote and
# whether it failed. No database connection is kept between commands.
MANAGER = f"""
import io, json, os, sys, traceback
from contextlib import redirect_stderr, redirect_stdout

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django

django.setup()
from django.core.management import call_command, get_commands, load_command_class
from django.db import connections

answers = sys.stdout
for line in sys.stdin:
    out, err, returncode = io.StringIO(), io.StringIO(), 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            name, *args = json.loads(line)
            command = load_command_class(get_commands()[name], name)
            checks = {{"skip_checks": False}} if command.requires_system_checks else {{}}
            call_command(command, *args, stdout=out, stderr=err, **checks)
    except SystemExit as exit:
        returncode = 0 if exit.code is None else exit.code if isinstance(exit.code, int) else 1
    except Exception:
        traceback.print_exc(file=err)
        returncode = 1
    finally:
        connections.close_all()
    done = {{"returncode": returncode, "stdout": out.getvalue(), "stderr": err.getvalue()}}
    answers.write({ANSWER!r} + json.dumps(done) + "\\n")
    answers.flush()
"""


@dataclass
class Manager:
    """The manage.py process of one server: started with ``env`` on its first command
    (again if it exited), its own output appended to ``log``."""

    env: dict[str, str]
    log: Path
    process: subprocess.Popen[str] | None = field(default=None, repr=False)

    def start(self) -> None:
        """Start the process now, not on the first command: Django loads in it (about a
        second) while the caller does something else, such as starting its server."""
        self._running()

    def run(self, *args: str) -> str:
        """``manage.py *args``: its output, or CalledProcessError."""
        process = self._running()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(args) + "\n")
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith(ANSWER):
                done = json.loads(line[len(ANSWER) :])
                if done["returncode"]:
                    raise subprocess.CalledProcessError(
                        done["returncode"], ["manage.py", *args], done["stdout"], done["stderr"]
                    )
                return str(done["stdout"]).strip()
        raise RuntimeError(f"manage.py {' '.join(args)}: its process exited (see {self.log})")

    def _running(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            with self.log.open("a") as log:  # the child keeps its own copy
                self.process = subprocess.Popen(
                    [sys.executable, "-c", MANAGER],
                    cwd=ROOT,
                    env=self.env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    text=True,
                )
        return self.process

    def close(self) -> None:
        """Its input closed, the process exits (it holds no database connection meanwhile)."""
        if self.process is not None:
            self.closing()
            self.process.wait(timeout=10)  # it writes nothing once its input has ended
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None

    def closing(self) -> None:
        """Close its input without waiting: the process exits while the caller stops its
        server (:meth:`close` then waits for it)."""
        if self.process is not None and self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()


_migrated: Path | None = None  # the directory of the run's migrated database


def migrated_database(env: dict[str, str]) -> Path:
    """A SQLite database migrated once for the run (in a temp dir removed at exit), which
    every server's database starts as: the same as migrating each."""
    global _migrated
    if _migrated is None:
        directory = Path(tempfile.mkdtemp(prefix="migrated-"))
        atexit.register(shutil.rmtree, directory, True)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env={**env, "DATA_DIR": str(directory)},
            capture_output=True,
            check=True,
        )
        _migrated = directory
    return _migrated / "db.sqlite3"
