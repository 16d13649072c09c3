// Game record replay: the page works without this script (one server-rendered page per ply,
// ?ply=N); with it, the buttons, the slider, the move list and the arrow keys move through the
// game without reloading, and the address, the share link and the picture link follow the ply.
const data = JSON.parse(document.getElementById("record-data").textContent);
const root = document.querySelector(".record");
const board = root.querySelector('[data-role="board"]');
const squares = new Map([...board.querySelectorAll(".sq")].map((el) => [el.dataset.sq, el]));
const slider = root.querySelector('[data-role="slider"]');
const label = root.querySelector('[data-role="ply-label"]');
const moveLinks = [...root.querySelectorAll('[data-role="moves"] a[data-ply]')];
const share = root.querySelector('[data-role="share-link"]');
const imageLink = root.querySelector('[data-role="image-link"]');
const ogImage = document.querySelector('[data-role="og-image"]');
const numbersLink = root.querySelector('[data-role="numbers"]');
const continueForm = root.querySelector('[data-role="continue"]');
const T = data.i18n;
const total = data.steps.length;
let ply = data.ply;
let numbers = board.classList.contains("numbers");

const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");

function position(n) {
  const stones = new Map();
  const placed = new Map();
  data.steps.slice(0, n).forEach(([square, side, flips], i) => {
    stones.set(square, side);
    placed.set(square, i + 1);
    for (const f of flips) stones.set(f, side);
  });
  return { stones, placed };
}

function urlFor(n) {
  const params = new URLSearchParams({ ply: String(n) });
  if (numbers) params.set("numbers", "1");
  return `${data.page}?${params}`;
}

function render(n, push = true) {
  ply = Math.max(0, Math.min(total, n));
  const { stones, placed } = position(ply);
  const last = ply ? data.steps[ply - 1][0] : null;
  const line = ply === total ? new Set(data.line) : new Set();
  for (const [sq, el] of squares) {
    const stone = stones.get(sq) || "";
    el.dataset.stone = stone ? data.shown[stone] : ""; // the mark that side's player draws
    el.classList.toggle("last", sq === last);
    el.classList.toggle("win", line.has(sq));
    if (line.has(sq)) el.dataset.win = data.line_dir; else delete el.dataset.win;
    const number = placed.get(sq);
    el.innerHTML = number && stone ? `<i class="n">${number}</i>` : "";
    let said = `${sq}, ${stone ? data.labels[stone] : T.empty}`;
    if (sq === last) said += `, ${T.last_move}`;
    if (line.has(sq)) said += `, ${T.winning_line}`;
    el.parentElement.setAttribute("aria-label", said);
  }
  if (ply) {
    const [square, side, , passed] = data.steps[ply - 1];
    let text = fmt(T.move, { n: ply, total, side: data.labels[side], square, time: data.times[ply - 1] });
    if (passed) text += " · " + fmt(T.passed, { side: data.labels[passed] });
    label.textContent = text;
  } else {
    label.textContent = T.start;
  }
  slider.value = String(ply);
  slider.setAttribute("aria-valuetext", `${ply} / ${total}`);
  const targets = { first: 0, prev: ply - 1, next: ply + 1, last: total };
  for (const a of root.querySelectorAll("[data-go]")) {
    const target = Math.max(0, Math.min(total, targets[a.dataset.go]));
    a.href = urlFor(target);
    a.setAttribute("aria-disabled", String(target === ply));
  }
  for (const a of moveLinks) {
    if (Number(a.dataset.ply) === ply) {
      a.setAttribute("aria-current", "step");
      if (push) a.scrollIntoView({ block: "nearest" });
    } else a.removeAttribute("aria-current");
  }
  const absolute = new URL(urlFor(ply), location.href);
  absolute.searchParams.delete("numbers");
  if (share) share.value = absolute.href;
  const picture = new URL(`${data.image}?ply=${ply}`, location.href).href;
  if (imageLink) imageLink.href = picture;
  if (ogImage) ogImage.content = picture;
  if (continueForm) {
    continueForm.elements.moves.value = data.steps.slice(0, ply).map((step) => step[0]).join(",");
    continueForm.hidden = data.ended && ply === total;
  }
  if (push) history.replaceState(null, "", urlFor(ply));
}

root.addEventListener("click", (event) => {
  const go = event.target.closest("[data-go]");
  const move = event.target.closest("a[data-ply]");
  const copy = event.target.closest('[data-role="copy"]');
  if (go) {
    event.preventDefault();
    const targets = { first: 0, prev: ply - 1, next: ply + 1, last: total };
    render(targets[go.dataset.go]);
  } else if (move) {
    event.preventDefault();
    render(Number(move.dataset.ply));
  } else if (copy) {
    const input = document.getElementById(copy.dataset.target);
    input.select();
    navigator.clipboard?.writeText(input.value).catch(() => document.execCommand("copy"));
  } else if (event.target === numbersLink) {
    event.preventDefault();
    numbers = !numbers;
    board.classList.toggle("numbers", numbers);
    numbersLink.setAttribute("aria-pressed", String(numbers));
    numbersLink.textContent = numbers ? numbersLink.dataset.hide : numbersLink.dataset.show;
    render(ply);
  }
});

slider.addEventListener("input", () => render(Number(slider.value)));
root.querySelector('[data-role="slider-go"]').hidden = true;

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, select, textarea, [contenteditable]")) return;
  const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: total };
  if (!(event.key in keys)) return;
  event.preventDefault();
  render(keys[event.key]);
});

render(ply, false);
root.dataset.enhanced = "1";
