// What does not fit a phone: run in the page, it answers {scroll, wide, small}.
//
// - scroll: the page's own width when it is wider than the window (it scrolls sideways).
// - wide: elements whose right edge passes the window, outside a box made to scroll sideways
//   (overflow-x auto or scroll, itself inside the window: a wide table in its own scroll box).
// - small: visible touch targets under 44 px wide or high. Targets are buttons, inputs,
//   selects, textareas, summaries, links that act as buttons (a.button, [role=button], links
//   of a <nav>, of the header, of a pager and of the lists of steps or moves one walks
//   through), and a checkbox or radio through its label when it has one (the label is what is
//   tapped). Other links are text links (in a sentence, a paragraph, a table cell, a list of
//   facts) and exempt, as WCAG 2.5.8 exempts inline targets.
(() => {
  const W = window.innerWidth;
  const MIN = 44;
  const slack = 0.5;
  const out = { width: W, scroll: 0, wide: [], small: [] };
  const se = document.scrollingElement;
  if (se.scrollWidth > W) out.scroll = se.scrollWidth;

  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += "#" + el.id;
    if (el.classList.length) text += "." + [...el.classList].join(".");
    const words = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
    return text + (words ? ` "${words.slice(0, 40).replace(/\s+/g, " ")}"` : "");
  };
  const path = (el) => {
    const parts = [];
    for (let p = el; p && p !== document.body && parts.length < 4; p = p.parentElement) {
      parts.unshift(name(p).split(" ")[0]);
    }
    return parts.join(" > ");
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return null;
    const s = getComputedStyle(el);
    if (s.visibility === "hidden" || s.display === "none" || s.opacity === "0") return null;
    if (el.closest("details:not([open]) > :not(summary)")) return null;
    return r;
  };
  const scroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === "auto" || s.overflowX === "scroll") {
        return p.getBoundingClientRect().right <= W + slack ? p : null;
      }
    }
    return null;
  };

  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
    if (el.closest(".sr")) continue;
    const r = shown(el);
    if (!r) continue;
    if (r.right > W + slack && !scroller(el)) {
      out.wide.push(`${path(el)}: right edge at ${Math.round(r.right)} px`);
    }
  }

  const acting = (a) =>
    a.matches(
      ".button, [role=button], nav a, header a, .pager a, .replay-nav a, .mb-pager a, " +
        "ol.steps a, .mb-steps a, ol.moves a"
    );
  const targets = new Set();
  const selector = "button, input:not([type=hidden]), select, textarea, summary, a[href]";
  for (const el of document.body.querySelectorAll(selector)) {
    if (el.matches("a[href]") && !acting(el)) continue;
    if (el.matches("input[type=checkbox], input[type=radio]")) {
      const label = el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`));
      targets.add(label || el);
      continue;
    }
    targets.add(el);
  }
  for (const el of targets) {
    const r = shown(el);
    if (!r) continue;
    if (r.width < MIN - slack || r.height < MIN - slack) {
      out.small.push(`${path(el)}: ${Math.round(r.width)}×${Math.round(r.height)} px`);
    }
  }
  return out;
})();
