"""Three dealers beside the outside probe's three contention scenarios (issue 49), on the
production shape: the checkout's own Procfile lines (gunicorn web, and api where the
Procfile has it; the Celery worker, the webhooks worker where it has one, and beat) on
PostgreSQL and Redis, with HTTPS=true behind the proxy's headers, each at the ``Nice=``
of its shipped systemd unit. Requests are routed as the shipped nginx routes them: a
dealer's (a bearer token) to ``api`` when there is one, everything else to ``web``.

- ``drip``: a webhook whose receiver answers a byte every 4 s, fed 40 alarms at the
  phase's start; besides ingest, how far the odds fall behind (rounds recorded without
  their odds, the most at any time, polled twice a second).
- ``exports``: one reviewer's session asking for the full JSON export from 8 threads at
  once, again as each ends (after ``Retry-After`` when refused).
- ``logins``: 16 threads of wrong sign-ins from 50 addresses (each try a new username).

Each scenario runs in pairs of phases alternated (baseline, scenario, scenario, baseline,
...) with the same dealers: 3, each posting ``--rate`` rounds a second to a table of its
own. For each phase: rounds acknowledged a second and the dealers' p50/p99 latency, and
for each scenario phase its ratio to the baseline beside it. The goal: ingest keeps
>= 80 % of its baseline rate with p99 <= 2x baseline; the odds never more than 10
rounds behind under the dripping receiver.

    python -m benchmarks.contention                          # all three, 2 pairs each
    python -m benchmarks.contention exports --pairs 3 --seconds 20
    python -m benchmarks.contention --root /tmp/before       # another checkout, same load
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psycopg

from benchmarks import load, login_flood
from tables.game.shoe import DealingShoe
from tests.servers import PostgresCluster, RedisServer, free_port
from tests.surveillance.receiver import dripping

CLIENT = "198.51.100.7"  # the address the proxy names for the dealers and the reviewer
CSRF = login_flood.CSRF
DEALERS = 3
ALARMS = 40
DRIP_EVERY = 4.0  # seconds between the dripping receiver's bytes


def call(
    url: str, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, list[tuple[str, str]], bytes]:
    """One request on a connection of its own (as behind the proxy), from the address the
    proxy names unless ``headers`` name another: the login flood benchmark's request."""
    return login_flood.call(url, method, path, body, {"X-Real-IP": CLIENT, **(headers or {})})


def procfile(root: Path) -> dict[str, str]:
    lines = (root / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line and not line.startswith("#"))


def command_of(line: str, env: dict[str, str], nice: int = 0) -> list[str]:
    """A Procfile line as a command: its ``${NAME:-default}`` filled from ``env``, its
    program run by this interpreter (``python -m gunicorn``, ``python -m celery``), at
    the ``nice`` its systemd unit gives it."""
    filled = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: env.get(m.group(1), m.group(2)), line)
    words = filled.replace("%h", "bench").split()
    return [*(["nice", "-n", str(nice)] if nice else []), sys.executable, "-m", *words]


def unit_nice(root: Path, process: str) -> int:
    """The ``Nice=`` of the process's shipped systemd unit (0 when it sets none)."""
    unit = root / "deploy" / "systemd" / f"baccarat-{process}.service"
    found = re.search(r"^Nice=(-?\d+)$", unit.read_text(), re.MULTILINE) if unit.exists() else None
    return int(found.group(1)) if found else 0


@dataclass
class ProductionStack:
    """The checkout's Procfile processes but ``ws`` (no page is open here)."""

    root: Path
    history: int
    data: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-contention-")))
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    web: str = ""
    api: str = ""
    tokens: dict[str, str] = field(default_factory=dict)

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=self.root, env=self.env, capture_output=True, text=True
        )
        if done.returncode:
            raise RuntimeError(done.stderr[-2000:])
        return done.stdout.strip()

    def shell(self, code: str) -> str:
        return self.manage("shell", "--no-imports", "-c", code)

    @contextmanager
    def running(self) -> Iterator[ProductionStack]:
        postgres, redis = PostgresCluster().start(), RedisServer().start()
        ports = {"PORT": free_port(), "API_PORT": free_port()}
        self.env = {
            **os.environ,
            "DATABASE_URL": postgres.create_database("contention"),
            "REDIS_URL": redis.url,
            "HTTPS": "true",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATA_DIR": str(self.data),
            "LOG_LEVEL": "WARNING",
            "WEBHOOK_TIMEOUT": "5",
            **{name: str(port) for name, port in ports.items()},
        }
        for name in ("TASKS_INLINE", "DJANGO_SETTINGS_MODULE", "PROMETHEUS_MULTIPROC_DIR"):
            self.env.pop(name, None)
        try:
            self.manage("migrate", "-v0")
            for n in range(1, DEALERS + 1):
                slug = f"dealer-{n}"
                self.tokens[slug] = self.manage("table_create", "--slug", slug, "--name", f"Dealer {n}").split()[-1]
            if self.history:
                self.shell(f"from benchmarks.history_fill import fill; fill({self.history})")
            self.shell(
                "from django.contrib.auth.models import User; "
                "User.objects.create_superuser('reviewer', password='pw-reviewer-1')"
            )
            lines = procfile(self.root)
            for name in ("web", "api", "worker", "webhooks", "beat"):
                if name in lines:
                    line = lines[name].replace("${DATA_DIR:-var}", str(self.data))
                    with (self.data / f"{name}.log").open("w") as log:
                        command = command_of(line, self.env, unit_nice(self.root, name))
                        self.processes[name] = subprocess.Popen(
                            command, cwd=self.root, env=self.env, stdout=log, stderr=log
                        )
            self.web = f"http://127.0.0.1:{ports['PORT']}"
            self.api = f"http://127.0.0.1:{ports['API_PORT']}" if "api" in self.processes else self.web
            for url in {self.web, self.api}:
                _wait(url)
            for slug, token in self.tokens.items():
                dealer_post(self.api, slug, token, "shoes", {})
            yield self
        finally:
            for process in self.processes.values():
                process.terminate()
            for process in self.processes.values():
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
            redis.destroy()
            postgres.destroy()
            shutil.rmtree(self.data, ignore_errors=True)


def _wait(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if call(url, "GET", "/api/openapi.json")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not start")


def dealer_post(url: str, slug: str, token: str, path: str, body: dict[str, Any]) -> int:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    return call(url, "POST", f"/api/tables/{slug}/{path}", json.dumps(body).encode(), headers)[0]


class Dealer(threading.Thread):
    """Posts ``rate`` rounds a second to its table until ``stop``; each round's latency."""

    def __init__(self, stack: ProductionStack, slug: str, rate: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.stack, self.slug, self.rate, self.stop = stack, slug, rate, stop
        self.shoe, self.latencies, self.acknowledged, self.errors = DealingShoe.shuffled(), [], 0, Counter[int]()

    def run(self) -> None:
        token = self.stack.tokens[self.slug]
        dealer_post(self.stack.api, self.slug, token, "shoes", {})  # a shoe of its own: this phase's cards
        start = time.monotonic()
        for n in itertools.count():
            due = start + n / self.rate
            if self.stop.wait(max(0.0, due - time.monotonic())):
                return
            if self.shoe.finished:
                dealer_post(self.stack.api, self.slug, token, "shoes", {})
                self.shoe = DealingShoe.shuffled()
            outcome = self.shoe.deal()
            cards = {"player": [c.code for c in outcome.player_cards], "banker": [c.code for c in outcome.banker_cards]}
            began = time.monotonic()
            try:
                status = dealer_post(self.stack.api, self.slug, token, "rounds", cards)
            except OSError:
                status = 0
            self.latencies.append((time.monotonic() - began) * 1000)
            if status == 201:
                self.acknowledged += 1
            else:
                self.errors[status] += 1


def signed_in(url: str, username: str, password: str) -> str:
    """A session cookie of ``username``'s, signed in through admin's login."""
    status, headers, page = call(url, "GET", "/admin/login/")
    cookie = "; ".join(v.split(";")[0] for k, v in headers if k.lower() == "set-cookie")
    token = CSRF.search(page)
    assert token is not None, status
    form = urlencode({"csrfmiddlewaretoken": token.group(1), "username": username, "password": password})
    status, headers, _ = call(
        url,
        "POST",
        "/admin/login/",
        form.encode(),
        {
            "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"https://127.0.0.1{url[url.rindex(':') :]}/admin/login/",
        },
    )
    assert status == 302, status
    return "; ".join(v.split(";")[0] for k, v in headers if k.lower() == "set-cookie")


Scenario = Callable[[ProductionStack, threading.Event, dict[str, float]], None]


def exports(stack: ProductionStack, stop: threading.Event, figures: dict[str, float]) -> None:
    cookie = signed_in(stack.web, "reviewer", "pw-reviewer-1")
    answers: Counter[int] = Counter()

    def export() -> None:
        while not stop.is_set():
            status, headers, _ = call(stack.web, "GET", "/review/rounds.json", headers={"Cookie": cookie})
            answers[status] += 1
            if status == 429:
                stop.wait(float(dict(headers).get("Retry-After", "1")))

    threads = [threading.Thread(target=export, daemon=True) for _ in range(8)]
    for thread in threads:
        thread.start()
    stop.wait()
    for thread in threads:
        thread.join(timeout=120)
    figures.update({f"exports answered {status}": count for status, count in sorted(answers.items())})


def owner_browser(stack: ProductionStack) -> str:
    """The owner's browser signed in before the flood (its cookies), tried until it is:
    the last phase's flood may still hold this second's hashes."""
    for _ in range(20):
        try:
            return signed_in(stack.web, "reviewer", "pw-reviewer-1")
        except AssertionError:
            time.sleep(1)
    raise RuntimeError("the owner could not sign in before the flood")


def owner_signs_in(stack: ProductionStack, stop: threading.Event, answers: Counter[int], known: str) -> None:
    """The owner signing in every 2 s during the flood, from a browser that signed in
    before it (``known``: its cookies, kept), from an address of its own."""
    keep = "; ".join(c for c in known.split("; ") if not c.startswith("sessionid="))
    while not stop.wait(2):
        origin = {"X-Real-IP": "192.0.2.200", "Cookie": keep}
        status, headers, page = call(stack.web, "GET", "/admin/login/", headers=origin)
        token = CSRF.search(page)
        if token is None:
            answers[status] += 1
            continue
        cookie = "; ".join([keep, *(v.split(";")[0] for k, v in headers if k.lower() == "set-cookie")])
        form = urlencode({"csrfmiddlewaretoken": token.group(1), "username": "reviewer", "password": "pw-reviewer-1"})
        sent = {
            **origin,
            "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"https://127.0.0.1{stack.web[stack.web.rindex(':') :]}/admin/login/",
        }
        answers[call(stack.web, "POST", "/admin/login/", form.encode(), sent)[0]] += 1


def logins(stack: ProductionStack, stop: threading.Event, figures: dict[str, float]) -> None:
    answers: Counter[int] = Counter()
    owner: Counter[int] = Counter()
    known = owner_browser(stack)
    owner_thread = threading.Thread(target=owner_signs_in, args=(stack, stop, owner, known), daemon=True)
    owner_thread.start()

    def flood(worker: int) -> None:
        for n in itertools.count():
            if stop.is_set():
                return
            origin = {"X-Real-IP": f"10.0.0.{(worker * 7 + n) % 50 + 1}"}  # 50 addresses
            status, headers, page = call(stack.web, "GET", "/admin/login/", headers=origin)
            cookie = "; ".join(v.split(";")[0] for k, v in headers if k.lower() == "set-cookie")
            token = CSRF.search(page)
            if token is None:
                answers[status] += 1
                continue
            form = urlencode({"csrfmiddlewaretoken": token.group(1), "username": f"u-{worker}-{n}", "password": "x"})
            headers_sent = {
                **origin,
                "Cookie": cookie,
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"https://127.0.0.1{stack.web[stack.web.rindex(':') :]}/admin/login/",
            }
            status, _, _ = call(stack.web, "POST", "/admin/login/", form.encode(), headers_sent)
            answers[status] += 1

    threads = [threading.Thread(target=flood, args=(k,), daemon=True) for k in range(16)]
    for thread in threads:
        thread.start()
    stop.wait()
    for thread in threads:
        thread.join(timeout=60)
    owner_thread.join(timeout=60)
    figures.update({f"sign-ins answered {status}": count for status, count in sorted(answers.items())})
    figures["owner's sign-ins that got in (302)"] = owner[302]
    figures["owner's sign-ins tried"] = sum(owner.values())


RAISE_ALARMS = """
from tables.game.alarms import AlarmKind, Finding, Severity
from tables.models import Alarm, Table
from tables.surveillance.alarms import alarm_raise
Alarm.objects.exclude(state="resolved").update(state="resolved")  # last phase's: each phase's alarms are new
pairs = [(table, kind) for kind in AlarmKind for table in Table.objects.filter(slug__startswith="dealer-")]
for n, (table, kind) in enumerate(pairs[:{count}]):
    finding = Finding(kind=kind, severity=Severity.WARNING, key="bench-{phase}-%d" % n, round_number=1)
    alarm_raise(finding, table=table, dealer="bench")
"""


def drip(stack: ProductionStack, stop: threading.Event, figures: dict[str, float]) -> None:
    behind: list[int] = []
    with dripping(every=DRIP_EVERY) as url, psycopg.connect(stack.env["DATABASE_URL"], autocommit=True) as db:
        # On loopback, as a casino's own receiver is on its network: allowed where the
        # checkout has an address policy (the field), or it would never be sent to.
        stack.shell(
            "from tables.models import Webhook\n"
            f"hook, _ = Webhook.objects.get_or_create(name='drip', url={url!r})\n"
            "if any(f.name == 'private_address_allowed' for f in Webhook._meta.get_fields()):\n"
            "    Webhook.objects.filter(pk=hook.pk).update(private_address_allowed=True)\n"
            "Webhook.objects.filter(pk=hook.pk).update(active=True)"
        )
        stack.shell(RAISE_ALARMS.format(count=ALARMS, phase=secrets.token_hex(4)))
        first = db.execute("SELECT coalesce(max(id), 0) FROM tables_round").fetchone()[0]
        while not stop.wait(0.5):
            row = db.execute(
                "SELECT count(*) FROM tables_round"
                " WHERE id > %s AND odds IS NULL AND created_at < now() - interval '1 second'",
                (first,),
            ).fetchone()
            behind.append(row[0])
        stack.shell("from tables.models import Webhook; Webhook.objects.filter(name='drip').update(active=False)")
        attempts = db.execute(
            "SELECT count(*), count(*) FILTER (WHERE error LIKE 'no whole answer%%') FROM tables_webhookattempt"
        ).fetchone()
    figures["odds behind, most rounds at once (>1 s old)"] = max(behind, default=0)
    figures["webhook attempts so far (all phases)"] = attempts[0]
    figures["  of which ended by their deadline"] = attempts[1]


SCENARIOS: dict[str, Scenario] = {"drip": drip, "exports": exports, "logins": logins}


def phase(stack: ProductionStack, seconds: float, rate: float, scenario: Scenario | None) -> dict[str, float]:
    stop, figures = threading.Event(), {}
    dealers = [Dealer(stack, slug, rate, stop) for slug in stack.tokens]
    load_thread = None
    if scenario is not None:
        load_thread = threading.Thread(target=scenario, args=(stack, stop, figures), daemon=True)
        load_thread.start()
        time.sleep(2)  # the load under way before the dealers' clock starts
    started = time.monotonic()
    for dealer in dealers:
        dealer.start()
    time.sleep(seconds)
    stop.set()
    elapsed = time.monotonic() - started
    for dealer in dealers:
        dealer.join(timeout=120)
    if load_thread is not None:
        load_thread.join(timeout=180)
    latencies = [ms for dealer in dealers for ms in dealer.latencies]
    errors = sum((dealer.errors for dealer in dealers), Counter[int]())
    return {
        "rounds/s": sum(dealer.acknowledged for dealer in dealers) / elapsed,
        "p50 ms": load.percentile(latencies, 0.5),
        "p99 ms": load.percentile(latencies, 0.99),
        **{f"dealer answers {status}": count for status, count in sorted(errors.items())},
        **figures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", metavar="scenario", help=f"of {', '.join(SCENARIOS)} (default: all)")
    parser.add_argument("--root", type=Path, default=load.ROOT, help="the checkout whose servers run")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rate", type=float, default=2.5, help="rounds a second each of the 3 dealers posts")
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--history", type=int, default=100_000, help="rounds of history the exports read")
    options = parser.parse_args()
    unknown = set(options.scenarios) - set(SCENARIOS)
    if unknown:
        parser.error(f"no scenario {', '.join(sorted(unknown))}")
    stack = ProductionStack(options.root.resolve(), options.history)
    with stack.running():
        posting_to = "api" if stack.api != stack.web else "web"
        print(f"{options.root}: {', '.join(stack.processes)}; dealers post to {posting_to}", flush=True)
        for name in options.scenarios or list(SCENARIOS):
            for pair in range(options.pairs):
                order = [None, name] if pair % 2 == 0 else [name, None]
                results = {}
                for which in order:
                    results[which] = phase(stack, options.seconds, options.rate, SCENARIOS[which] if which else None)
                base, under = results[None], results[name]
                load.report(f"{name}, pair {pair + 1}: baseline", base)
                load.report(f"{name}, pair {pair + 1}: {name}", under)
                print(
                    f"  => rate {under['rounds/s'] / base['rounds/s']:.2f}x baseline, "
                    f"p99 {under['p99 ms'] / base['p99 ms']:.2f}x baseline",
                    flush=True,
                )


if __name__ == "__main__":
    main()
