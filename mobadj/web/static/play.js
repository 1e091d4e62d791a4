// mobadj seat pages: the orders box read by the judge as the player types (the same reader
// and checks as when the orders are sent; nothing is stored), each problem shown with its
// line.  An improvement only: without JavaScript the "Check only" button does the same.
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
