/* The header's language switch sends the page's address as it is now, not as it was served.

   The server gives each language form a hidden `next` (the served address, or the page's address
   in that language: a record's /en/game/N/, a guide's). Scripts change the address after that: the
   on-device game adds its `game=` id, a record's replay its `ply=`. On submit, this keeps the form's
   path when it names another page (the other language's address), takes the current path when it
   names this one, and takes the current query either way; so switching language mid-game keeps the
   game and a record keeps its ply. Without this module the served address is sent (no script: the
   same as before). */

const group = document.querySelector(".lang-switch[data-served]");
if (group) {
  group.addEventListener("submit", (event) => {
    const next = event.target.querySelector('input[name="next"]');
    if (!next) return;
    const served = new URL(group.dataset.served, location.href);
    const target = new URL(next.value || served.href, location.href);
    if (target.origin !== location.origin) return;
    if (target.pathname === served.pathname) target.pathname = location.pathname;
    target.search = location.search;
    next.value = target.pathname + target.search;
  });
}
