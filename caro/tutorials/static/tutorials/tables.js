// A guide's tables that are wider than the screen scroll inside their box (document.py's
// .table-wrap). On a phone nothing showed that the last columns were there: each box that
// overflows gets a line before it saying so (the article's data-table-hint, in the guide's
// language), and loses it when the window grows wide enough for the whole table.

const HINT_CLASS = "table-hint";

function mark(wrap, text) {
  const overflows = wrap.scrollWidth > wrap.clientWidth + 1;
  const hint = wrap.previousElementSibling?.classList.contains(HINT_CLASS) ? wrap.previousElementSibling : null;
  if (overflows && !hint) {
    const line = document.createElement("p");
    line.className = HINT_CLASS;
    line.dataset.testid = "table-hint";
    line.textContent = text;
    wrap.before(line);
  } else if (!overflows && hint) {
    hint.remove();
  }
}

export function markTables(article) {
  const text = article.dataset.tableHint;
  for (const wrap of article.querySelectorAll(".table-wrap")) mark(wrap, text);
}

const article = document.querySelector("[data-table-hint]");
if (article) {
  markTables(article);
  addEventListener("resize", () => markTables(article));
}
