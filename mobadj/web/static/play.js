// mobadj seat pages: the orders box read by the judge as the player types (the same reader
// and checks as when the orders are sent; nothing is stored), each problem shown with its
// line, and the map redrawn with those orders as the judge's PREVIEW reads them (the seat's
// own map, POSTed with the form's token: never another seat's orders).  An improvement
// only: without JavaScript the "Check only" button does the same.
//
// The box is read for the phase the page was drawn for (its form's "drawn", sent along):
// once the game has moved on, the judge says so instead of reading it against a phase the
// page does not show.  Every request names the page's power ("seat"): after another power
// signed in on this browser, the page is told that it was signed out.
//
// When the reading is refused (the session ended, the page is from an earlier sign-in,
// another power signed in here, the game moved on), the judge's words and a link to go on
// are shown in its place, and what the box holds is kept in this tab (sessionStorage): the
// seat's page, opened again here for the same seat and phase, puts it back into the box,
// unsent, and says so (for another phase, it shows it to copy).  A seat that passed to
// another player keeps nothing: nobody signs in here to get it back.
//
// A page that shows the judge's answer to what was just sent opens with it focused.
(function () {
  "use strict";

  var NO_ANSWER = "The judge could not read the box just now (no answer from the server). " +
    "What you typed is still in the box; nothing was sent.";

  function refused(box, data) {
    box.textContent = "";
    var p = document.createElement("p");
    p.className = "bad refused";
    p.setAttribute("role", "alert");
    p.textContent = data.message || NO_ANSWER;
    if (data.link) {
      var a = document.createElement("a");
      a.href = data.link.href;
      a.textContent = data.link.text;
      p.appendChild(document.createTextNode(" "));
      p.appendChild(a);
    }
    box.appendChild(p);
  }

  function show(box, data) {
    box.textContent = "";
    var head = document.createElement("p");
    head.className = data.problems.some(function (p) { return p.kind === "error"; }) ? "bad" : "good";
    head.textContent = data.accepted.length + " order(s) read" +
      (data.problems.length ? ", " + data.problems.length + " to look at:" : ".");
    box.appendChild(head);
    if (data.problems.length) {
      var list = document.createElement("ul");
      data.problems.forEach(function (p) {
        var li = document.createElement("li");
        li.className = p.kind;
        li.textContent = p.text;
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    if (data.preview) {
      var pre = document.createElement("pre");
      pre.className = "preview";
      pre.textContent = "Preview (the others all hold):\n" + data.preview;
      box.appendChild(pre);
    }
  }

  // the map of the typed orders, drawn in place of the picture of the standing ones: into
  // the same picture (or the same SVG, on the page that answers "Check only"), so that its
  // zoom (zoom.js) and the place looked at stay as they were
  var TYPED = "Map with the orders in the box as the judge previews them";
  function redraw(figure, svgText) {
    var doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    var svg = doc.documentElement;
    if (!svg || svg.nodeName !== "svg") return;
    var frame = figure.querySelector(".map-view");
    var img = frame.querySelector("img");
    var old = frame.querySelector("svg");
    figure.classList.add("typed");
    if (img) {
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgText);
      img.alt = TYPED;
      return;
    }
    if (!old) return;
    Array.prototype.slice.call(svg.attributes).forEach(function (a) {
      if (a.name !== "style") old.setAttribute(a.name, a.value);
    });
    old.replaceChildren.apply(old, Array.prototype.map.call(svg.childNodes, function (n) {
      return document.importNode(n, true);
    }));
    old.setAttribute("role", "img");
    old.setAttribute("aria-label", TYPED);
  }

  // what the box held when its reading was refused, kept for the seat's page opened again
  // (form, area and box are null on a page without the orders box: nothing due now)
  function keeper(form, area, box) {
    var key = "mobadj-typed " + location.pathname;
    var me = document.querySelector("strong.me");
    var seat = me ? me.textContent : "";
    var drawn = form ? form.querySelector("input[name=drawn]").value : "";
    var saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(key) || "null");
      sessionStorage.removeItem(key);
    } catch (e) { saved = null; }
    var place = box || document.querySelector("section.orders-box");
    if (saved && saved.seat === seat && saved.text && place &&
        !(area && saved.text === area.value)) {
      var note = document.createElement("div");
      note.className = "restored";
      note.setAttribute("role", "status");
      var p = document.createElement("p");
      note.appendChild(p);
      var before = saved.why === "moved-on" ? "" : " before you signed in again";
      if (area && saved.drawn === drawn) {
        area.value = saved.text;
        p.textContent = "What you typed" + before + " is back in the box: " +
          "not sent yet (the orders standing are what the judge has).";
      } else {  // the game has moved on: not put back, but shown to copy
        p.textContent = "What you typed for an earlier phase" + before +
          " (not sent, not put back: the game has moved on):";
        var pre = document.createElement("pre");
        pre.textContent = saved.text;
        note.appendChild(pre);
      }
      if (box) box.parentNode.insertBefore(note, box);
      else place.appendChild(note);
    }
    return function (why) {
      try {
        sessionStorage.setItem(key, JSON.stringify({ seat: seat, drawn: drawn, why: why || "",
                                                     text: area.value }));
      } catch (e) { /* storage refused: the box still holds it */ }
    };
  }

  // The page opened after an action (orders, a vote, press, a card move) starts at the
  // judge's answer: focused, so that a screen reader reads it at once and the keyboard
  // goes on from there (a status shown as the page loads is not announced by itself).
  function answerFirst() {
    var said = document.querySelector(".said-box pre.said");
    if (said) said.focus();
  }

  function setup() {
    answerFirst();
    var form = document.querySelector("form.orders-form");
    if (!form) {
      keeper(null, null, null);
      return;
    }
    var area = form.querySelector("textarea[name=orders]");
    var box = document.getElementById("checked");
    var csrf = form.querySelector("input[name=csrf]").value;
    var drawn = form.querySelector("input[name=drawn]").value;
    var seatField = form.querySelector("input[name=seat]");
    var keep = keeper(form, area, box);
    var timer = null, asked = 0, out = false, why = "";
    var onMap = area.defaultValue;  // the orders the map shows (the box as the page came)
    form.addEventListener("submit", function () { if (out) keep(why); });
    function check() {
      var mine = ++asked;
      var body = new URLSearchParams({ csrf: csrf, drawn: drawn, orders: area.value });
      if (seatField) body.set("seat", seatField.value);
      fetch(form.getAttribute("data-check"), {
        method: "POST", credentials: "same-origin", body: body,
        headers: { "X-CSRF-Token": csrf }
      }).then(function (r) {
        var json = (r.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        if (!r.ok) {
          return (json ? r.json() : Promise.resolve({})).then(function (data) {
            throw data;
          });
        }
        return r.json();
      }).then(function (data) {
        out = false;
        if (mine === asked) show(box, data);
        var figure = document.querySelector("figure.seat-map");
        var text = body.get("orders");
        if (!figure || mine !== asked || text === onMap) return null;
        return fetch("mine.svg", {
          method: "POST", credentials: "same-origin", body: body,
          headers: { "X-CSRF-Token": csrf }
        }).then(function (r) {
          return r.ok ? r.text() : null;
        }).then(function (svgText) {
          if (svgText && mine === asked) {
            redraw(figure, svgText);
            onMap = text;
          }
        }).catch(function () { /* no map: the one shown stays */ });
      }).catch(function (data) {
        if (mine !== asked) return;
        data = data && data.problem ? data : {};  // else no answer, or not the judge's
        out = Boolean(data.link) && data.keep !== false;
        why = data.problem || "";
        if (out) keep(why);
        refused(box, data);
      });
    }
    area.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(check, 350);
    });
    if (area.value.trim()) check();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
