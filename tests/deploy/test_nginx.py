"""The shipped nginx file (deploy/nginx/baccarat.conf), run by real nginx in front of
gunicorn and uvicorn on PostgreSQL and Redis: pages, the API and live pages through it,
and the limits a client address meets there (issue 30, item 4; issue 32, item 4)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests import servers
from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS
from tests.managing import Manager
from tests.rounds import SEED

pytestmark = pytest.mark.backend_free  # starts every server it needs itself

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "nginx" / "baccarat.conf"


def rendered(web: int, ws: int, listen: int, api: int) -> str:
    """The shipped file on the test's ports, without TLS, with limits small enough to reach."""
    text = SHIPPED.read_text()
    plain, tls = text.split("server {\n    listen 80;", 1)[0], text.split("server {\n    listen 443", 1)[1]
    text = plain + "server {\n    listen 443" + tls
    for shipped, test in [
        ("127.0.0.1:8000", f"127.0.0.1:{web}"),
        ("127.0.0.1:8001", f"127.0.0.1:{ws}"),
        ("127.0.0.1:8002", f"127.0.0.1:{api}"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{listen};"),
        ("    ssl_certificate /etc/ssl/baccarat/fullchain.pem;\n", ""),
        ("    ssl_certificate_key /etc/ssl/baccarat/privkey.pem;\n", ""),
        ("client_header_timeout 10s;", "client_header_timeout 1s;"),
        ("proxy_set_header Host $host;", "proxy_set_header Host $http_host;"),  # a port other than 443: keep it
        ("limit_conn baccarat_ws 2000;", "limit_conn baccarat_ws 3;"),
        ("limit_req zone=baccarat_pages burst=40 nodelay;", "limit_req zone=baccarat_pages burst=5 nodelay;"),
    ]:
        assert shipped in text, shipped
        text = text.replace(shipped, test)
    return text


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        servers.unavailable("nginx is not installed (Debian's nginx package)")
    problem = servers.missing()
    if problem:
        servers.unavailable(problem)
    root = tmp_path_factory.mktemp("nginx")
    postgres, redis = servers.PostgresCluster().start(migrated=True), servers.RedisServer().start()
    web, ws, listen, api = servers.free_port(), servers.free_port(), servers.free_port(), servers.free_port()
    env = {**os.environ, "DATABASE_URL": postgres.create_database("proxied", migrated=True), "REDIS_URL": redis.url,
           # The test's proxy speaks plain HTTP on its own port: a browser's page is from there.
           "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{listen}",
           "DATA_DIR": str(root), "HTTPS": "true", "ALLOWED_HOSTS": "127.0.0.1",
           "SECRET_KEY": "proxied-" + "0123456789abcdefghij" * 3,
           "LOG_FORMAT": "json", "STATIC_MANIFEST": "true"}  # fmt: skip
    env.pop("TASKS_INLINE", None)
    processes: list[subprocess.Popen[bytes]] = []
    manage = Manager(env, root / "manage.log")  # the two commands in one Django process: 1-2 s sooner
    try:
        manage.run("collectstatic", "--noinput", "-v0")
        made = manage.run("table_create", "--slug", "t1", "--name", "Table 1")
        manage.close()
        # A log each (gunicorn's access lines among them): the test reads which served what.
        for name, command in [
            ("web", servers.gunicorn(web)),
            ("api", servers.gunicorn(api)),
            ("ws", [*servers.uvicorn(ws), "--proxy-headers"]),
        ]:
            with (root / f"{name}.log").open("w") as log:
                processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
        (root / "baccarat.conf").write_text(rendered(web, ws, listen, api))
        for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (root / temp).mkdir()
        (root / "nginx.conf").write_text(
            ("user root;\n" if os.geteuid() == 0 else "")
            + f"daemon off;\nworker_processes 1;\npid {root}/nginx.pid;\nerror_log {root}/error.log;\n"
            + "events { worker_connections 512; }\n"
            + f"http {{\n access_log off;\n client_body_temp_path {root}/body;\n proxy_temp_path {root}/proxy;\n"
            + f" fastcgi_temp_path {root}/fastcgi;\n uwsgi_temp_path {root}/uwsgi;\n scgi_temp_path {root}/scgi;\n"
            + f" include {root}/baccarat.conf;\n}}\n"
        )
        processes.append(subprocess.Popen([binary, "-p", str(root), "-c", str(root / "nginx.conf")]))
        url = f"http://127.0.0.1:{listen}"
        deadline = time.monotonic() + 30
        behind_tls = {"X-Forwarded-Proto": "https"}  # what nginx tells the api gunicorn (asked directly here)
        while not all(
            status(at, "/api/openapi.json", None, behind_tls)[0] == 200 for at in (url, f"http://127.0.0.1:{api}")
        ):
            assert time.monotonic() < deadline, "".join(log.read_text()[-1000:] for log in root.glob("*.log"))
            time.sleep(0.2)  # three processes starting: nothing to wait on but their ports
        yield {"url": url, "token": made.splitlines()[-1].strip(), "ws": f"ws://127.0.0.1:{listen}", "root": str(root)}
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)
        manage.close()
        redis.destroy()
        postgres.destroy()


def status(url: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url + path, data=body, headers=headers or {}, method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)
    except OSError:
        return 0, {}


def api(proxied: dict[str, str], path: str, body: object, token: str | None = None, **headers: str) -> int:
    sent = {"Authorization": f"Bearer {token or proxied['token']}", "Content-Type": "application/json", **headers}
    return status(proxied["url"], f"/api/tables/t1/{path}", json.dumps(body).encode(), sent)[0]


def round_posted(proxied: dict[str, str]) -> tuple[str, Message]:
    """The seed's round posted through the proxy: its id, and the answer's headers."""
    request = urllib.request.Request(
        f"{proxied['url']}/api/tables/t1/rounds", data=json.dumps(SEED).encode(), method="POST",
        headers={"Authorization": f"Bearer {proxied['token']}", "Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["round"]["id"], response.headers


def test_a_page_the_api_and_a_live_page_work_through_the_proxy(proxied: dict[str, str]) -> None:
    assert status(proxied["url"], "/")[0] == 200
    assert api(proxied, "shoes", {}) in (200, 201)
    with connect(f"{proxied['ws']}/ws/tables/t1/", origin=proxied["url"].replace("http:", "https:")) as page:
        page.send(json.dumps({"have": {}}))
        page.recv(timeout=10)  # the live part, resynced
        round_id, headers = round_posted(proxied)
        assert len(headers["X-Request-ID"]) == 32  # nginx's $request_id, passed on
        deadline = time.monotonic() + 10
        while round_id not in str(page.recv(timeout=max(0.1, deadline - time.monotonic()))):
            assert time.monotonic() < deadline


def access_logs(root: Path, last: str, timeout: float = 10) -> dict[str, str]:
    """The web and api processes' logs once one of them holds the ``last`` request made:
    gunicorn writes its access line after it has answered, so a log read as the answer
    arrives may not hold it yet (a loaded machine missed it)."""
    deadline = time.monotonic() + timeout
    while True:
        served = {name: (root / f"{name}.log").read_text() for name in ("web", "api")}
        if any(last in log for log in served.values()) or time.monotonic() > deadline:
            return served
        time.sleep(0.05)  # another process's file: nothing to wait on but its next write


def test_a_dealer_system_s_requests_go_to_the_api_s_own_gunicorn_and_everything_else_to_web(
    proxied: dict[str, str],
) -> None:
    """Issue 49, item 2: an export or a sign-in flood on the web process never takes the
    threads that record rounds."""
    round_id, _ = round_posted(proxied)
    assert status(proxied["url"], f"/rounds/{round_id}/")[0] == 200
    assert status(proxied["url"], "/api/tables/t1/roads")[0] == 200  # a public read: no token
    served = access_logs(Path(proxied["root"]), last="GET /api/tables/t1/roads")
    assert '"POST /api/tables/t1/rounds' in served["api"] and "/api/tables/t1/rounds" not in served["web"]
    assert f"GET /rounds/{round_id}/" in served["web"] and "GET /rounds/" not in served["api"]
    assert "GET /api/tables/t1/roads" in served["web"] and "/roads" not in served["api"]


def test_a_spoofed_client_address_changes_nothing(proxied: dict[str, str]) -> None:
    answers = [api(proxied, "rounds", SEED, token="wrong", **{"X-Real-IP": f"10.9.0.{n}"}) for n in range(25)]
    assert answers[:20] == [401] * 20 and answers[-1] == 429  # counted on the address nginx saw


def test_a_body_over_the_apis_largest_is_refused_by_the_proxy(proxied: dict[str, str]) -> None:
    code, headers = status(proxied["url"], "/api/tables/t1/shoes", b"x" * 300_000, {"Authorization": "Bearer x"})
    assert code == 413 and headers.get("Server", "").startswith("nginx")


def test_a_burst_of_page_requests_beyond_the_limit_gets_429(proxied: dict[str, str]) -> None:
    answers = [status(proxied["url"], "/odds-nowhere/")[0] for _ in range(30)]
    assert 429 in answers and answers[0] != 429


def test_websockets_beyond_an_addresses_cap_get_429(proxied: dict[str, str]) -> None:
    origin = proxied["url"].replace("http:", "https:")
    with contextlib.ExitStack() as pages:
        for _ in range(3):
            pages.enter_context(connect(f"{proxied['ws']}/ws/lobby/", origin=origin))
        with pytest.raises(InvalidStatus, match="429"), connect(f"{proxied['ws']}/ws/lobby/", origin=origin):
            pass


def test_a_slow_client_is_dropped_by_the_proxy_and_holds_no_server(proxied: dict[str, str]) -> None:
    port = int(proxied["url"].rsplit(":", 1)[1])
    slow = []
    for _ in range(10):
        client = socket.create_connection(("127.0.0.1", port), timeout=5)
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and then nothing
        slow.append(client)
    assert status(proxied["url"], "/api/openapi.json")[0] == 200  # the servers are free meanwhile
    for client in slow:
        answer = client.recv(1024)  # nginx ends it after client_header_timeout (1 s here)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
        client.close()


def test_static_files_come_compressed_and_cached_for_a_year_through_the_proxy(proxied: dict[str, str]) -> None:
    with urllib.request.urlopen(proxied["url"] + "/", timeout=10) as response:
        page = response.read().decode()
    script = re.search(r'src="(/static/js/live\.[0-9a-f]{12}\.js)"', page)
    assert script, "production names its static files by their hash"
    request = urllib.request.Request(proxied["url"] + script.group(1), headers={"Accept-Encoding": "gzip, br"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Encoding"] in ("gzip", "br")
        assert "max-age=315360000" in response.headers["Cache-Control"]
        assert "immutable" in response.headers["Cache-Control"]


def test_a_browser_through_the_proxy_sees_a_round_live(proxied: dict[str, str]) -> None:
    if not Path(CHROMIUM).exists():
        servers.unavailable(f"{CHROMIUM} is not installed (apt-get install chromium)")
    assert api(proxied, "shoes", {}) in (200, 201)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(proxied["url"] + "/tables/t1/")
            page.wait_for_selector("#connection.connection-live", timeout=10_000)
            round_id, _ = round_posted(proxied)
            page.wait_for_selector(f"#history >> text={round_id}", timeout=10_000)
        finally:
            browser.close()
