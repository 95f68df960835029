// The tracker's service worker: the pages last seen, shown when the network fails (the page
// then says it may be out of date), our own offline page for a page never seen, and a press
// made offline on a campaign page kept on the phone and sent once when the connection returns.
// Never kept: the live streams (/live/), the API, PDFs, and any answer to a POST.

var VERSION = "tracker-1";
var PAGES = VERSION + "-pages";    // pages seen, at most MOST_PAGES of them, newest last
var FILES = VERSION + "-files";    // the style, the script, the icons, the offline page
var MOST_PAGES = 80;
var OFFLINE = "/offline";
var FILES_AT_START = [
  OFFLINE,
  "/static/style.css",
  "/static/print.css",
  "/static/app.js",
  "/static/htmx.min.js",
  "/static/htmx-ext-sse.min.js",
  "/static/icon.svg",
];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(FILES).then(function (cache) { return cache.addAll(FILES_AT_START); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(VERSION + "-") !== 0;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function neverKept(url) {
  return /^\/(live|api|sw\.js|manifest\.webmanifest)(\/|$)/.test(url.pathname) ||
    url.pathname.indexOf("/pdf/") >= 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || neverKept(url)) return;
  if (request.method === "POST") {
    if (request.mode === "navigate") event.respondWith(sendOrKeep(request, url));
    return;
  }
  if (request.method !== "GET" || request.headers.get("HX-Request")) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/favicon.ico") {
    event.respondWith(file(request));
  }
});

// A page: from the network when it answers (and kept), else as last seen, marked so that it
// shows its "may be out of date" banner, else our offline page.
function page(request) {
  return fetch(request).then(function (answer) {
    var type = answer.headers.get("Content-Type") || "";
    if (answer.status === 200 && answer.type === "basic" && type.indexOf("text/html") === 0) {
      var copy = answer.clone();
      quietly(caches.open(PAGES).then(function (cache) {
        return cache.delete(request.url).then(function () {
          return cache.put(request.url, copy);
        }).then(function () { return trim(cache); });
      }));
    }
    return answer;
  }, function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(request.url); })
      .then(function (seen) {
        if (seen) return marked(seen);
        return offlinePage();
      });
  });
}

function offlinePage() {
  return caches.match(OFFLINE, {cacheName: FILES}).then(function (offline) {
    return offline || Response.error();
  });
}

// Work that need not hold up the answer (the page is shown while it is kept).
function quietly(promise) { promise.catch(function () {}); }

function trim(cache) {
  return cache.keys().then(function (keys) {
    var extra = keys.length - MOST_PAGES;
    return Promise.all(keys.slice(0, Math.max(extra, 0)).map(function (key) {
      return cache.delete(key);
    }));
  });
}

// A kept page marked as shown offline (its banner shows by the style alone) and, when presses
// wait on this phone, as holding them.
function marked(seen) {
  return Promise.all([seen.text(), waiting()]).then(function (both) {
    var marks = ' data-offline=""' + (both[1].length ? ' data-kept=""' : "");
    var text = both[0].replace(/<html\b/i, "<html" + marks);
    return new Response(text, {status: 200, statusText: "OK", headers: seen.headers});
  });
}

function file(request) {
  return fetch(request).then(function (answer) {
    if (answer.ok) {
      var copy = answer.clone();
      quietly(caches.open(FILES).then(function (cache) { return cache.put(request, copy); }));
    }
    return answer;
  }, function () {
    return caches.match(request).then(function (kept) { return kept || Response.error(); });
  });
}

// -- presses made offline -------------------------------------------------------------------

// A form sent from a page: to the server when it answers; when the network fails, a press on a
// campaign page is kept (its body as it was, with its one-time key `idem`) and the page is
// shown again, as last seen, saying so; any other form shows our offline page.
function sendOrKeep(request, url) {
  var kept = request.clone();
  if (url.pathname === "/logout") forgetPages();
  return fetch(request).catch(function () {
    if (url.pathname.indexOf("/c/") !== 0) return offlinePage();
    return kept.arrayBuffer().then(function (body) {
      return keep({
        url: request.url,
        type: request.headers.get("Content-Type") || "application/x-www-form-urlencoded",
        body: body,
        at: Date.now(),
      });
    }).then(function () {
      var back = request.referrer && new URL(request.referrer).origin === self.location.origin
        ? request.referrer : request.url;
      return Response.redirect(back, 303);
    });
  });
}

// Who logs out leaves no page of theirs on the phone, and no press of theirs waiting: sent
// later, it would go out with whoever logs in next (whose session would refuse its form's
// token in any case).
function forgetPages() {
  quietly(caches.delete(PAGES));
  quietly(inStore("readwrite", function (store) { return store.clear(); }));
}

function database() {
  return new Promise(function (resolve, reject) {
    var opening = indexedDB.open("tracker-presses", 1);
    opening.onupgradeneeded = function () {
      opening.result.createObjectStore("presses", {keyPath: "id", autoIncrement: true});
    };
    opening.onsuccess = function () { resolve(opening.result); };
    opening.onerror = function () { reject(opening.error); };
  });
}

function inStore(mode, work) {
  return database().then(function (db) {
    return new Promise(function (resolve, reject) {
      var transaction = db.transaction("presses", mode);
      var result = work(transaction.objectStore("presses"));
      transaction.oncomplete = function () { db.close(); resolve(result && result.result); };
      transaction.onerror = function () { db.close(); reject(transaction.error); };
    });
  });
}

function keep(press) {
  return inStore("readwrite", function (store) { return store.add(press); });
}

function waiting() {
  return inStore("readonly", function (store) { return store.getAll(); })
    .catch(function () { return []; });
}

function forget(id) {
  return inStore("readwrite", function (store) { return store.delete(id); });
}

// Send what waits, oldest first, each once: a press is forgotten as soon as the server has
// answered it (recorded, or refused: the refusal's page goes to the pages open to be told in
// words); a network failure leaves it and the rest for the next time. Should a press be sent
// again all the same (the worker stopped between its answer and its forgetting), its key
// `idem` makes the server record it once. Asked again while a round is under way (the
// connection came back while the last round still found it down), a round follows it.
var flushing = null;

function flush() {
  if (flushing) return flushing.then(flush);
  var outcome = {type: "presses", sent: 0, refused: [], kept: 0};
  flushing = waiting().then(function (presses) {
    return presses.reduce(function (previous, press) {
      return previous.then(function (going) {
        if (!going) { outcome.kept += 1; return false; }
        return send(press, outcome);
      });
    }, Promise.resolve(true));
  }).then(function () {
    flushing = null;
    return outcome;
  }, function () {
    flushing = null;
    return outcome;
  });
  return flushing;
}

function send(press, outcome) {
  return fetch(press.url, {
    method: "POST",
    body: press.body,
    headers: {"Content-Type": press.type},
    credentials: "same-origin",
    redirect: "manual",
  }).then(function (answer) {
    if (answer.type === "opaqueredirect" || (answer.status >= 200 && answer.status < 400)) {
      outcome.sent += 1;
      return forget(press.id).then(function () { return true; });
    }
    return answer.text().then(function (text) {
      outcome.refused.push(text);
      return forget(press.id).then(function () { return true; });
    });
  }, function () {
    outcome.kept += 1;
    return false;
  });
}

function tell(outcome) {
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (pages) {
    pages.forEach(function (client) { client.postMessage(outcome); });
  });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "flush") event.waitUntil(flush().then(tell));
  if (data.type === "language") event.waitUntil(offlinePageIn(data.language));
});

// Our offline page, in the language of the pages read: taken again when the reader's
// language changes.
function offlinePageIn(language) {
  return caches.open(FILES).then(function (cache) {
    return cache.match(OFFLINE).then(function (kept) {
      if (kept && kept.headers.get("Content-Language") === language) return null;
      return fetch(OFFLINE, {credentials: "same-origin"}).then(function (answer) {
        if (answer.ok) return cache.put(OFFLINE, answer);
        return null;
      });
    });
  }).catch(function () {});
}
