"""Seed the guides from the versioned source files ``caro/tutorials/guides/<lang>/*.md``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from .document import GuideSource, parse_source
from .markup import DiagramError

GUIDES_DIR = Path(__file__).resolve().parent / "guides"


@dataclass
class SourceFile:
    """A parsed guide source file: ``language``, ``path`` and its :class:`GuideSource`."""

    language: str
    path: Path
    source: GuideSource


def read_sources(directory: Path = GUIDES_DIR) -> list[SourceFile]:
    """Every guide file of every configured language, sorted by language then file name.

    Raises DiagramError with ``path:line`` in the message for a malformed file.
    """
    found = []
    for language, _name in settings.LANGUAGES:
        for path in sorted((directory / language).glob("*.md")):
            try:
                source = parse_source(path.read_text(encoding="utf-8"))
            except DiagramError as exc:
                raise DiagramError(f"{path.name}: {exc.message}", exc.line) from exc
            found.append(SourceFile(language, path, source))
    return found


def sync_guides(using: str = "default", force: bool = False, model=None) -> dict[str, list[str]]:
    """Create or update the guides from the source files.

    A stored guide whose body was edited in the admin (its body no longer matches what was last
    seeded) is left alone unless ``force``. Returns ``{"created": [...], "updated": [...],
    "kept": [...]}`` with ``"lang/key"`` entries. ``model`` defaults to :class:`Guide`.
    """
    if model is None:
        from .models import Guide as model
    report: dict[str, list[str]] = {"created": [], "updated": [], "kept": []}
    for item in read_sources():
        src = item.source
        fields = {"slug": src.slug, "title": src.title, "summary": src.summary, "order": src.order,
                  "preset": src.preset, "body": src.body}
        sha = hashlib.sha256(src.body.encode()).hexdigest()
        name = f"{item.language}/{src.key}"
        guide = model.objects.using(using).filter(key=src.key, language=item.language).first()
        if guide is None:
            model.objects.using(using).create(key=src.key, language=item.language, seeded_sha=sha, **fields)
            report["created"].append(name)
            continue
        if all(getattr(guide, k) == v for k, v in fields.items()):
            if guide.seeded_sha != sha:
                model.objects.using(using).filter(pk=guide.pk).update(seeded_sha=sha)
            continue
        edited = hashlib.sha256(guide.body.encode()).hexdigest() != guide.seeded_sha
        if edited and not force:
            report["kept"].append(name)
            continue
        model.objects.using(using).filter(pk=guide.pk).update(seeded_sha=sha, **fields)
        report["updated"].append(name)
    return report
