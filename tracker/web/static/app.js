// The page's script: helpers on the forms, and the live refresh of a campaign page. Without
// script every page works as it is, and shows what is new when it is loaded again.

// The helpers bind to what `root` holds: the whole page at first, then each part a live
// refresh brings in.
function enhance(root) {
// Which <details> the page opened itself: a live refresh keeps those the player toggled.
root.querySelectorAll("details[open]").forEach(function (element) {
  element.setAttribute("data-was-open", "");
});

// A Warcry battle form: the points and fighters picked, counted as the boxes are ticked
// (the server draws the limit and checks it; without script the roster's total is shown).
root.querySelectorAll("fieldset[data-muster]").forEach(function (side) {
  var limit = parseInt(side.dataset.muster, 10);
  var points = side.querySelector("output[data-points-total]");
  var fighters = side.querySelector("output[data-fighters-total]");
  if (!points) return;
  var boxes = side.querySelectorAll("input[data-points]");
  function count() {
    var total = 0, picked = 0;
    boxes.forEach(function (box) {
      if (box.checked) { total += parseInt(box.dataset.points, 10) || 0; picked += 1; }
    });
    points.textContent = total;
    fighters.textContent = picked;
    var over = side.querySelector("[data-over]");
    if (over) over.hidden = !(total > limit || picked > 15);
  }
  points.parentNode.hidden = false;
  boxes.forEach(function (box) { box.addEventListener("change", count); });
  count();
});

// A form that destroys something asks first (data-confirm holds the question). Without
// script the form is sent as it is.
// A button may ask a question of its own instead (data-confirm on the button).
root.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    var asker = event.submitter && event.submitter.dataset.confirm ? event.submitter : form;
    if (!window.confirm(asker.dataset.confirm)) event.preventDefault();
  });
});
root.querySelectorAll("button[data-confirm]").forEach(function (button) {
  if (button.form && button.form.dataset.confirm) return;  // the form asks (above)
  button.addEventListener("click", function (event) {
    if (!window.confirm(button.dataset.confirm)) event.preventDefault();
  });
});

// "Copy the link": the text of the element data-copy names, onto the clipboard.
root.querySelectorAll("button[data-copy]").forEach(function (button) {
  var source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) { button.hidden = true; return; }
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      button.textContent = "Copied";
    });
  });
});
}

// Live pages (htmx and its server-sent events extension): when the campaign's stream tells
// of a new version, htmx fetches the page again and swaps its #live part. A refresh never
// destroys what a player is doing: while a field of a form has the focus or has been changed
// (or the page shows a refused entry with what was typed), the refresh waits, a note says
// so, and it comes once the player is done with the form.
(function () {
  if (!window.htmx) { enhance(document); return; }
  var pending = false;
  var toggled = null; // the <details> the player opened or closed, kept across a refresh

  // The newest version the stream told of. A version told while a refresh was being swapped
  // in finds no element listening (htmx binds the new part's trigger a moment after the
  // swap), and a refresh may have been answered just before the latest entry: whenever the
  // part shown is older than what was told, the page asks once more.
  var told = 0, chased = 0;

  function catchUp(live) {
    var shown = parseInt(live.dataset.version, 10) || 0;
    if (told > shown && chased !== told) {
      chased = told;
      htmx.trigger(live, "sse:version");
    }
  }

  htmx.onLoad(function (root) {
    enhance(root);
    if (root.id === "live") catchUp(root);
    if (root.id !== "live" || !toggled) return;
    var details = root.querySelectorAll("details");
    if (details.length === toggled.count) {
      toggled.open.forEach(function (pair) { details[pair[0]].open = pair[1]; });
    }
    toggled = null;
  });

  function keepToggled(live) {
    var details = live.querySelectorAll("details"), open = [];
    details.forEach(function (element, n) {
      if (element.open !== element.hasAttribute("data-was-open")) open.push([n, element.open]);
    });
    toggled = {count: details.length, open: open};
  }

  function selectChanged(select) {
    var options = Array.prototype.slice.call(select.options);
    if (select.multiple) {
      return options.some(function (o) { return o.selected !== o.defaultSelected; });
    }
    var chosen = options.filter(function (o) { return o.defaultSelected; });
    var initial = chosen.length ? chosen[chosen.length - 1] : options[0];
    return initial !== undefined && select.options[select.selectedIndex] !== initial;
  }

  function fieldChanged(field) {
    if (field.tagName === "SELECT") return selectChanged(field);
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName !== "TEXTAREA" && field.tagName !== "INPUT") return false;
    if (/^(hidden|submit|button|reset|image|file)$/.test(field.type)) return false;
    return field.value !== field.defaultValue;
  }

  function busy() {
    var live = document.getElementById("live");
    if (!live) return false;
    if (document.body.hasAttribute("data-live-hold")) return true;
    var active = document.activeElement;
    if (active && live.contains(active) && active.matches("input, select, textarea") &&
        !/^(submit|button|reset|image)$/.test(active.type)) return true;
    return Array.prototype.some.call(live.querySelectorAll("input, select, textarea"), fieldChanged);
  }

  function note(shown) {
    var element = document.getElementById("live-note");
    if (element) element.hidden = !shown;
  }

  function wait() { pending = true; note(true); }

  function resume() {
    var live = document.getElementById("live");
    if (!pending || busy() || !live) return;
    pending = false;
    note(false);
    htmx.trigger(live, "sse:version");
  }

  document.addEventListener("htmx:confirm", function (event) {
    if (event.target.id !== "live") return;
    if (busy()) { event.preventDefault(); wait(); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.target.id !== "live") return;
    var text = event.detail.xhr.responseText || "";
    if (text.indexOf('id="live"') < 0) { event.detail.shouldSwap = false; return; }
    if (busy()) { event.detail.shouldSwap = false; wait(); return; }
    keepToggled(event.target);
  });
  // A hidden tab lets go of its stream: over HTTP/1.1 a browser holds six connections to a
  // server, and tabs left open behind must not take them all. Shown again, it opens a new
  // stream from the version it shows, which tells at once of anything it missed.
  var source = null, opened = 0;
  // A stream the server does not hold (one place has as many live pages open as it may, the
  // server is full, or the connection broke) ends at once: until a stream opens again, the
  // page looks for news every 30 seconds, and says so.
  var slow = null;
  function slowNote(shown) {
    var element = document.getElementById("live-slow");
    if (element) element.hidden = !shown;
  }
  document.addEventListener("htmx:sseError", function (event) {
    var failed = event.detail.source;
    if (slow || !failed || failed.readyState !== EventSource.CLOSED) return;
    slow = window.setInterval(function () {
      var live = document.getElementById("live");
      if (live && !document.hidden) htmx.trigger(live, "sse:version");
    }, 1000 * (parseInt(document.getElementById("live-slow").dataset.seconds, 10) || 30));
    slowNote(true);
  });
  document.addEventListener("htmx:sseOpen", function (event) {
    if (slow) { window.clearInterval(slow); slow = null; slowNote(false); }
    source = event.detail.source;
    if (source.heardByPage) return; // opened again after a break: it is heard already
    source.heardByPage = true;
    source.addEventListener("version", function (message) {
      told = Math.max(told, parseInt(message.data, 10) || 0);
    });
  });
  document.addEventListener("visibilitychange", function () {
    var body = document.body, live = document.getElementById("live");
    if (document.hidden) {
      if (source) { source.close(); source = null; }
      return;
    }
    if (source || !live || !body.hasAttribute("sse-connect")) return;
    opened += 1;
    var url = body.getAttribute("sse-connect").replace(/since=\d+.*$/, "since=");
    body.setAttribute("sse-connect", url + live.dataset.version + "&again=" + opened);
    live.setAttribute("data-stream", String(opened)); // its trigger then listens to the new one
    htmx.process(body);
  });
  document.addEventListener("focusout", function () { window.setTimeout(resume, 0); });
  document.addEventListener("reset", function () { window.setTimeout(resume, 0); });
})();

// The service worker (/sw.js): the pages last seen, shown when the network fails, and a press
// made offline kept on the phone and sent once the connection returns. What it tells of those
// presses is said here in the page's own words (hidden notes base.html renders translated).
(function () {
  if (!("serviceWorker" in navigator) || !window.fetch) return;
  function show(id, shown) {
    var element = document.getElementById(id);
    if (element) element.hidden = !shown;
    return element;
  }
  function refusalWords(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var found = page.querySelectorAll(".problems .error, main .error, main [role=alert]");
    var words = [];
    found.forEach(function (element) {
      var text = element.textContent.trim();
      if (text && words.indexOf(text) < 0) words.push(text);
    });
    if (!words.length && page.querySelector("main")) {
      words.push(page.querySelector("main").textContent.trim().replace(/\s+/g, " "));
    }
    return words;
  }
  // The connection back (the page is told so) is not always the server reachable at once: a
  // round that still finds the network down is tried again a few times, a few seconds apart.
  var retries = 0;
  navigator.serviceWorker.addEventListener("message", function (event) {
    var outcome = event.data || {};
    if (outcome.type !== "presses") return;
    if (outcome.kept && navigator.onLine && retries < 5) {
      retries += 1;
      window.setTimeout(flush, 2000);
    } else if (!outcome.kept) {
      retries = 0;
    }
    show("offline-kept", outcome.kept > 0);
    if (!outcome.kept) document.documentElement.removeAttribute("data-kept");
    if (outcome.sent) show("offline-sent", true);
    if (outcome.refused && outcome.refused.length) {
      var list = document.querySelector("#offline-refused ul");
      outcome.refused.forEach(function (html) {
        refusalWords(html).forEach(function (words) {
          var item = document.createElement("li");
          item.textContent = words;
          list.appendChild(item);
        });
      });
      show("offline-refused", true);
    }
  });
  var active = null;
  function flush() {
    var worker = navigator.serviceWorker.controller || active;
    if (worker) worker.postMessage({type: "flush"});
  }
  window.addEventListener("online", function () {
    document.documentElement.removeAttribute("data-offline");  // online again, if not fresh
    flush();
  });
  navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    active = registration.active;
    active.postMessage({type: "language", language: document.documentElement.lang});
    flush();
  }).catch(function () {});
})();
