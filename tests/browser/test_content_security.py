"""Every page works under the site's Content-Security-Policy: scripts, styles, images
and sockets from this site only, and no inline script. The ``page`` fixture fails a test
whose page had anything refused by the policy."""

from __future__ import annotations

from typing import Any

from tests.rounds import SEED

from .browsing import LiveServer


def test_every_page_sends_a_policy_that_allows_only_this_site_and_no_inline_script(
    server: LiveServer, page: Any
) -> None:
    server.table("csp-1", "CSP 1")
    for path in ("/", "/lobby/screen/", "/tables/csp-1/", "/tables/csp-1/odds/", "/admin/login/", "/api/docs"):
        policy = page.request.get(server.url + path).headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["default-src"] == directives["script-src"] == directives["connect-src"] == "'self'"


def test_the_live_pages_draw_their_charts_and_update_under_the_policy(server: LiveServer, page: Any) -> None:
    server.table("csp-2", "CSP 2")
    server.post("csp-2", "shoes")
    server.post("csp-2", "rounds", SEED)
    page.goto(server.url + "/tables/csp-2/")
    page.wait_for_selector("#connection.connection-live")  # the websocket is allowed
    page.wait_for_selector("[data-chart] .main-svg", state="attached")  # plotly drew
    round_id = server.post("csp-2", "rounds", SEED)["round"]["id"]
    page.wait_for_selector(f"#history >> text={round_id}", timeout=3000)

    server.post("csp-2", "shoes")  # a second shoe: the history offers a shoe picker
    page.goto(server.url + "/tables/csp-2/")
    page.select_option("select[name=shoe]", "1")  # picking a shoe shows it
    page.wait_for_url("**/tables/csp-2/?shoe=1")
    page.wait_for_selector(f"#history >> text={round_id}")

    page.goto(server.url + "/")
    page.wait_for_selector("#connection.connection-live")
    page.locator("#lobby-filter input[name=good]").check()  # the filter script runs
    page.wait_for_function("() => location.search.includes('good=1')")

    page.goto(server.url + "/lobby/screen/")
    page.wait_for_selector("#connection.connection-live", state="attached")  # hidden on a screen


def test_admin_the_review_charts_and_the_api_docs_work_under_the_policy(server: LiveServer, page: Any) -> None:
    server.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "User.objects.filter(username='csp').exists() or User.objects.create_superuser('csp', '', 'csp-pass-1')",
    )
    server.table("csp-3", "CSP 3")
    server.post("csp-3", "shoes")
    server.post("csp-3", "rounds", SEED)
    page.goto(server.url + "/admin/login/?next=/review/")
    page.fill("#id_username", "csp")
    page.fill("#id_password", "csp-pass-1")
    page.click("input[type=submit]")
    page.wait_for_selector("[data-chart] .main-svg", state="attached")  # the review page's plotly charts
    page.goto(server.url + "/admin/tables/round/")
    page.wait_for_selector("#result_list")
    page.goto(server.url + "/api/docs")
    page.wait_for_selector(".swagger-ui .info")  # Swagger UI ran from our static files
