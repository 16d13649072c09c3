"""Local development stack behind `python3 dev.py run|test`: embedded PostgreSQL and Redis
(`services`), child-process handling (`procs`), pre-start Django steps (`prepare`) and the
commands themselves (`cli`). Not used in production (see compose.yaml)."""
