// mobadj game pages: live countdowns, and stepping through phases without reloading
// (previous/next buttons, the slider, the left and right arrow keys), with the map's zoom
// (zoom.js) kept from one phase to the next.  Everything here is an improvement only: every
// page reads the same without JavaScript.
(function () {
  "use strict";

  function pad(n) { return String(n).padStart(2, "0"); }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var left = Math.floor((Date.parse(el.getAttribute("datetime")) - now) / 1000);
      var span = el.querySelector(".left");
      if (!span) return;
      if (left <= 0) { span.textContent = "(deadline passed)"; return; }
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      var m = Math.floor(left % 3600 / 60), s = left % 60;
      span.textContent = "(" + (d ? d + " d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s) + " left)";
    });
  }

  function nav() { return document.querySelector("nav.steps"); }

  var map = null;  // the zoom of this page's map (zoom.js)

  // After a step, focus goes back to the control that made it (the button or the slider
  // of the new page; the phase's heading when that control is gone or was the keyboard),
  // and the new phase is announced to a screen reader.
  function settle(from) {
    var heading = document.querySelector("h2.step-title");
    if (!heading) return;
    var live = document.getElementById("announce");
    if (live) {
      live.textContent = "";
      var count = heading.querySelector(".count");
      var name = heading.firstChild ? heading.firstChild.textContent.trim() : "";
      live.textContent = name + (count ? ", phase " + count.textContent.replace(" / ", " of ") : "");
    }
    var again = from ? document.querySelector(from) : null;
    (again || heading).focus({ preventScroll: !!again });
  }

  function go(id, push, from) {
    var url = id + ".html";
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var kept = map ? map.view() : null;  // the next map is shown as this one was
      document.querySelector("main").replaceWith(doc.querySelector("main"));
      document.title = doc.title;
      if (push) history.pushState({ id: id }, "", url);
      setup(kept);
      settle(from);
    }).catch(function () { location.href = url; });
  }

  function stepBy(delta, from) {
    var n = nav();
    if (!n) return;
    var ids = JSON.parse(n.dataset.ids), i = Number(n.dataset.index) + delta;
    if (i >= 0 && i < ids.length) go(ids[i], true, from);
  }

  // The neighbours' maps are fetched once this page's own map is in, so they neither delay
  // it (the server draws one map at a time) nor the page's load event.
  function preload(ids, i) {
    var img = document.querySelector("figure.map img");
    if (!img) return;
    function fetchAhead() {
      [i - 1, i + 1].forEach(function (j) {
        if (j >= 0 && j < ids.length) new Image().src = "map/" + ids[j] + ".svg";
      });
    }
    if (document.readyState !== "complete") {
      window.addEventListener("load", fetchAhead, { once: true });
    } else if (!img.complete) {
      img.addEventListener("load", fetchAhead, { once: true });
    } else {
      fetchAhead();
    }
  }

  // The seed check's long values: a Copy button beside each (they also wrap, and a click
  // selects the whole value).
  function select(code) {
    var range = document.createRange(), sel = window.getSelection();
    range.selectNodeContents(code);
    sel.removeAllRanges();
    sel.addRange(range);
  }

  function copy(code, button) {
    function said(ok) {
      button.textContent = ok ? "Copied" : "Selected: copy it";
      setTimeout(function () { button.textContent = "Copy"; }, 2500);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(code.textContent).then(function () { said(true); },
        function () { select(code); said(false); });
    } else {
      select(code);
      said(false);
    }
  }

  function copyButtons() {
    document.querySelectorAll("code.copy").forEach(function (code) {
      if (code.nextElementSibling && code.nextElementSibling.matches("button.copy")) return;
      var button = document.createElement("button"), dt = code.closest("dd");
      button.type = "button";
      button.className = "copy";
      button.textContent = "Copy";
      var name = dt && dt.previousElementSibling ? dt.previousElementSibling.textContent : "";
      button.setAttribute("aria-label", "Copy " + (name || "the value"));
      button.addEventListener("click", function () { copy(code, button); });
      code.after(button);
    });
  }

  function setup(kept) {
    tick();
    copyButtons();
    // a key given at another address of a private game: on to the game's own key box
    var opening = document.querySelector("form.opening");
    if (opening) opening.submit();
    map = window.mobadjZoom ? window.mobadjZoom.attach(document.querySelector("figure.map"),
                                                       kept) : null;
    var n = nav();
    if (!n) return;
    var ids = JSON.parse(n.dataset.ids);
    var slider = n.querySelector("input[type=range]");
    n.querySelector("label.slider").hidden = false;
    slider.addEventListener("change", function () {
      go(ids[Number(slider.value)], true, "nav.steps input[type=range]");
    });
    n.querySelectorAll("a.prev, a.next").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        var prev = a.classList.contains("prev");
        stepBy(prev ? -1 : 1, prev ? "nav.steps a.prev" : "nav.steps a.next");
      });
    });
    preload(ids, Number(n.dataset.index));
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    // on the map (not zoomed in: then they move it) the arrows step too, and focus stays
    var from = t && t.closest && t.closest(".map-view") ? "figure.map .map-view" : null;
    if (e.key === "ArrowLeft") { e.preventDefault(); stepBy(-1, from); }
    if (e.key === "ArrowRight") { e.preventDefault(); stepBy(1, from); }
  });
  window.addEventListener("popstate", function () {
    var m = location.pathname.match(/([^/]+)\.html$/);
    if (m && nav()) go(decodeURIComponent(m[1]), false);
  });
  document.addEventListener("DOMContentLoaded", function () { setup(null); });
  setInterval(tick, 1000);
}());
