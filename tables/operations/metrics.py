"""The product's numbers, for Prometheus (``GET /metrics``, :mod:`.exposition`).

Each is declared here once and counted where it happens: a round recorded or refused,
how long recording took, a push from its commit to its send, pages connected, resyncs,
odds jobs, failed authentications and 429s, card-authentication refusals, webhook
deliveries. No Django:
any layer may count.

With ``PROMETHEUS_MULTIPROC_DIR`` set (production: every gunicorn, uvicorn and Celery
process of a host writes its numbers there, prometheus-client's multiprocess mode), any
process's ``/metrics`` adds them all up; without it (the demo) the one process answers
for itself, with its CPU and memory beside.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)  # seconds: a request, a push
SLOW = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)  # seconds: an odds job

ROUNDS_RECORDED = Counter("baccarat_rounds_recorded", "Rounds recorded (a replayed retry is not counted)", ["table"])
ROUNDS_REFUSED = Counter(
    "baccarat_rounds_refused", "Round posts refused, by reason (invalid, illegal, conflict, ...)", ["reason"]
)
ROUND_SECONDS = Histogram("baccarat_round_record_seconds", "Recording a round: its POST, answered", buckets=FAST)
CARDS_DEALT = Counter("baccarat_cards_dealt", "Cards dealt one by one (a card-reading shoe); a retry is not counted")
CARDS_REFUSED = Counter(
    "baccarat_cards_refused", "Card posts refused, by reason (invalid, illegal, conflict, ...)", ["reason"]
)
CARD_SECONDS = Histogram("baccarat_card_deal_seconds", "Dealing one card: its POST, answered", buckets=FAST)
ROUNDS_CANCELLED = Counter("baccarat_rounds_cancelled", "Rounds in progress cancelled (a misdeal), by who", ["source"])
PUSH_SECONDS = Histogram(
    "baccarat_push_seconds", "From a change's commit to its push sent to the channel layer", buckets=FAST
)
PUSHES_DROPPED = Counter("baccarat_pushes_dropped", "Pushes not delivered, by why (send_failed, slow_page)", ["why"])
PAGES_CONNECTED = Gauge(
    "baccarat_pages_connected", "Live pages connected, per server process", ["kind"], multiprocess_mode="liveall"
)
RESYNCS = Counter("baccarat_resyncs", "Resyncs answered to pages, by answer (whole, none, later)", ["answer"])
HELLO_READS = Counter(
    "baccarat_hello_reads",
    "Reads of a table's state (state) and renders of its whole live part (whole) for table pages' resyncs,"
    " and of every table for the lobby's (lobby), each shared by every page that asks meanwhile in the process",
    ["read"],
)
ODDS_QUEUED = Counter("baccarat_odds_jobs_queued", "Odds jobs queued (a shoe's, after its rounds commit)")
ODDS_RUNNING = Gauge("baccarat_odds_jobs_running", "Odds jobs running now", multiprocess_mode="livesum")
ODDS_SECONDS = Histogram("baccarat_odds_job_seconds", "An odds job, from its start to its rounds stored", buckets=SLOW)
ODDS_SWEPT = Counter("baccarat_odds_swept_rounds", "Rounds whose odds job was lost, computed by the sweep")
AUTH_FAILURES = Counter("baccarat_authentication_failures", "Failed authentications, by kind (token, login)", ["kind"])
THROTTLED = Counter("baccarat_throttled", "Requests answered 429, by kind (token, login, report)", ["kind"])
CARD_REFUSALS = Counter("baccarat_card_refusals", "Card-authentication plaintexts refused (kept for reviewers)")
ALARMS_RAISED = Counter(
    "baccarat_alarms_raised", "Shoe surveillance's alarms raised, by kind and severity", ["kind", "severity"]
)
ALARM_FINDINGS_GATHERED = Counter(
    "baccarat_alarm_findings_gathered", "Findings an alarm already open gathered (no new alarm), by kind", ["kind"]
)
WEBHOOK_ATTEMPTS = Counter("baccarat_webhook_attempts", "Webhook deliveries attempted: POSTs to a receiver")
WEBHOOK_DELIVERED = Counter("baccarat_webhook_deliveries_succeeded", "Webhook deliveries a receiver accepted (2xx)")
WEBHOOK_FAILED = Counter(
    "baccarat_webhook_attempts_failed",
    "Webhook attempts that failed, by why (status: not 2xx, error: no answer)",
    ["why"],
)
WEBHOOK_ABANDONED = Counter("baccarat_webhook_deliveries_abandoned", "Webhook deliveries given up after their horizon")
