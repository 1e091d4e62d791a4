// mobadj seat pages: the orders box read by the judge as the player types (the same reader
// and checks as when the orders are sent; nothing is stored), each problem shown with its
// line, and the map redrawn with those orders as the judge's PREVIEW reads them (the seat's
// own map, POSTed with the form's token: never another seat's orders).  An improvement
// only: without JavaScript the "Check only" button does the same.
(function () {
  "use strict";

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

  // the map of the typed orders, drawn in place of the picture of the standing ones
  function redraw(figure, svgText) {
    var doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    var svg = doc.documentElement;
    if (!svg || svg.nodeName !== "svg") return;
    var frame = figure.querySelector(".map-view");
    var img = frame.querySelector("img");
    var old = frame.querySelector("svg");
    svg = document.importNode(svg, true);
    svg.setAttribute("class", "typed-map");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Map with the orders in the box as the judge previews them");
    if (old) frame.replaceChild(svg, old);
    else frame.appendChild(svg);
    if (img) img.hidden = true;
  }

  function setup() {
    var form = document.querySelector("form.orders-form");
    if (!form) return;
    var area = form.querySelector("textarea[name=orders]");
    var box = document.getElementById("checked");
    var csrf = form.querySelector("input[name=csrf]").value;
    var timer = null, asked = 0;
    function check() {
      var mine = ++asked;
      var body = new URLSearchParams({ csrf: csrf, orders: area.value });
      fetch(form.getAttribute("data-check"), {
        method: "POST", credentials: "same-origin", body: body,
        headers: { "X-CSRF-Token": csrf }
      }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      }).then(function (data) {
        if (mine === asked) show(box, data);
        var figure = document.querySelector("figure.seat-map");
        if (!figure || mine !== asked) return null;
        return fetch("mine.svg", {
          method: "POST", credentials: "same-origin", body: body,
          headers: { "X-CSRF-Token": csrf }
        }).then(function (r) {
          return r.ok ? r.text() : null;
        }).then(function (text) {
          if (text && mine === asked) redraw(figure, text);
        });
      }).catch(function () { box.textContent = ""; });
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
