"""Settings for the test suite: the project's own, with what tests need instead.

Background jobs run right after their transaction commits, in the test's thread, and
every change is pushed at once (no interval between pushes); tests that need a real
runner or a moving clock install a scheduler of their own (``tables.live.install``).
"""

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast: tests make many users
TASKS_INLINE = True
PUSH_INTERVAL = 0
