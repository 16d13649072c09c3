"""Server time of the rules guide pages (target: <= 30 ms for a guide with >= 8 diagrams).

Run:  DATABASE_URL=postgres://... python bench/pages.py [--requests 200]

Creates a throw-away database (migrate seeds the guides), then times full requests through the
Django test client (URL routing, middleware, ORM, template, the HTML cache) in this process:

* "cached": the normal case, the rendered HTML is read from the guide row;
* "cold": the cache key is cleared before every request, so Markdown, every diagram's SVG and the
  translation lookups run each time (what the first reader after an edit pays).

Prints p50/p95/max in milliseconds per guide, and whether the biggest guide meets the target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")
os.environ.setdefault("DEBUG", "1")

TARGET_MS = 30.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="timed requests per guide and mode")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"bench_pages_{os.getpid()}"
    settings.ALLOWED_HOSTS = ["*"]
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from caro.tutorials.models import Guide

        client = Client()
        guides = list(Guide.objects.order_by("language", "order"))
        print(f"{'guide':38} {'diagrams':>8} {'mode':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
        biggest = None
        for guide in guides:
            url = guide.get_absolute_url()
            diagrams = guide.body.count("```diagram")
            for mode in ("cached", "cold"):
                assert client.get(url).status_code == 200  # warm up imports, fill the cache
                times = []
                for _ in range(args.requests if mode == "cached" else max(20, args.requests // 5)):
                    if mode == "cold":
                        Guide.objects.filter(pk=guide.pk).update(render_key="")
                    start = time.perf_counter()
                    response = client.get(url)
                    times.append((time.perf_counter() - start) * 1000)
                    assert response.status_code == 200
                row = (percentile(times, 0.5), percentile(times, 0.95), max(times))
                print(f"{url:38} {diagrams:>8} {mode:>7} {row[0]:8.2f} {row[1]:8.2f} {row[2]:8.2f}")
                if mode == "cached" and (biggest is None or diagrams > biggest[0]):
                    biggest = (diagrams, url, row)
        diagrams, url, (p50, p95, _) = biggest
        verdict = "meets" if p95 <= TARGET_MS else "MISSES"
        print(f"\nbiggest guide {url} ({diagrams} diagrams): p50 {p50:.2f} ms, p95 {p95:.2f} ms "
              f"-> {verdict} the {TARGET_MS:.0f} ms target")
        return 0 if diagrams >= 8 else 1
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    raise SystemExit(main())
