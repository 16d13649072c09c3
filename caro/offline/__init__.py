"""Offline play and the installable site: the service worker's script (/sw.js), the web app
manifest (/manifest.webmanifest), the offline page, and what the worker keeps (`precache`).

The worker's own logic is JavaScript (static/js/offline/sw*.js); this package only decides what it
keeps and under which version, from the collected static files' manifest. See docs/architecture.md
("Offline and installable").
"""
