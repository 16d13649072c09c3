// A link to a part of the page kept in a closed <details> (the record page's "#report", which a
// finished game's room links to) opens that box and brings its summary into view, on load and
// when the address's #part changes. Without this script the box is there, closed.

function openTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  const box = target.matches("details") ? target : target.querySelector("details") || target.closest("details");
  if (!box) return;
  box.open = true;
  const summary = box.querySelector("summary");
  (summary || box).scrollIntoView({ block: "center" });
  if (summary) summary.focus({ preventScroll: true });
}

openTarget();
window.addEventListener("hashchange", openTarget);
