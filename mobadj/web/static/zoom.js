// mobadj game pages: zoom and pan on a phase's map, so that its names can be read on any
// screen.  The map is an <img> of the SVG in a scrolling frame: zooming widens the picture
// (the browser draws the SVG again at that size, sharp), panning scrolls the frame.
//   keyboard (the map focused): + and - zoom, 0 fits, the arrow keys move a zoomed map;
//   mouse: the + / - / Fit buttons, Ctrl + wheel (a trackpad's pinch), double click
//          (Shift: out), dragging a zoomed map;
//   touch: pinch with two fingers, one finger moves a zoomed map.
// Without JavaScript the map is a plain picture with a link to open it alone.  The picture
// may also be an SVG drawn into the page (a seat's map of the orders checked).
(function () {
  "use strict";

  var STEP = 1.5;    // a button or key press zooms by this
  var BEYOND = 1.5;  // at most this many times the picture's own size

  function clamp(v, lo, hi) { return Math.min(Math.max(v, lo), hi); }

  function attach(figure, kept) {
    var frame = figure && figure.querySelector(".map-view");
    var img = frame && frame.querySelector("img, svg");
    if (!img) return null;
    var tools = figure.querySelector(".zoom");
    var natural = Number(img.getAttribute("width")) || 1000;
    var z = 1;
    var name = img.getAttribute("alt") || frame.getAttribute("aria-label") || "Map";
    frame.tabIndex = 0;
    frame.setAttribute("role", "region");
    frame.setAttribute("aria-label", name +
      ". Plus and minus zoom, the arrow keys move the zoomed map, 0 fits it.");
    frame.style.aspectRatio = natural + " / " + (Number(img.getAttribute("height")) || natural);
    if (tools) tools.hidden = false;

    function most() { return Math.max(2, natural * BEYOND / (frame.clientWidth || natural)); }

    // zoom to nz, keeping the point (fx, fy) of the frame (its middle when not given) still
    function set(nz, fx, fy) {
      nz = clamp(nz, 1, most());
      if (fx === undefined) { fx = frame.clientWidth / 2; fy = frame.clientHeight / 2; }
      var cx = (frame.scrollLeft + fx) / z, cy = (frame.scrollTop + fy) / z;
      z = nz;
      img.style.width = (z * 100).toFixed(3) + "%";
      frame.classList.toggle("zoomed", z > 1.001);
      frame.scrollLeft = cx * z - fx;
      frame.scrollTop = cy * z - fy;
      figure.dataset.zoom = z.toFixed(3);
      if (tools) {
        tools.querySelector("[data-zoom=in]").disabled = z >= most() - 0.001;
        tools.querySelector("[data-zoom=out]").disabled = z <= 1.001;
        tools.querySelector("[data-zoom=fit]").disabled = z <= 1.001;
      }
    }

    function at(e) {  // a pointer's place in the frame
      var r = frame.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    }

    if (tools) {
      tools.addEventListener("click", function (e) {
        var b = e.target.closest("button[data-zoom]");
        if (!b) return;
        var how = b.dataset.zoom;
        set(how === "fit" ? 1 : how === "in" ? z * STEP : z / STEP);
      });
    }
    frame.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "+" || e.key === "=") { set(z * STEP); e.preventDefault(); }
      else if (e.key === "-" || e.key === "_") { set(z / STEP); e.preventDefault(); }
      else if (e.key === "0") { set(1); e.preventDefault(); }
      else if (z > 1.001 && e.key.indexOf("Arrow") === 0) {
        var dx = e.key === "ArrowLeft" ? -1 : e.key === "ArrowRight" ? 1 : 0;
        var dy = e.key === "ArrowUp" ? -1 : e.key === "ArrowDown" ? 1 : 0;
        frame.scrollBy(dx * frame.clientWidth / 5, dy * frame.clientHeight / 5);
        e.preventDefault();
        e.stopPropagation();  // the map moves; the phase stays
      }
    });
    frame.addEventListener("wheel", function (e) {
      if (!e.ctrlKey) return;  // a plain wheel scrolls (the page, or a zoomed map)
      e.preventDefault();
      var p = at(e);
      set(z * Math.exp(-clamp(e.deltaY, -100, 100) / 150), p[0], p[1]);
    }, { passive: false });
    frame.addEventListener("dblclick", function (e) {
      var p = at(e);
      set(e.shiftKey ? z / 2 : z * 2, p[0], p[1]);
      e.preventDefault();
    });
    img.addEventListener("dragstart", function (e) { e.preventDefault(); });

    var drag = null;
    frame.addEventListener("pointerdown", function (e) {
      if (e.pointerType !== "mouse" || e.button !== 0 || z <= 1.001) return;
      drag = [e.clientX, e.clientY];
      frame.setPointerCapture(e.pointerId);
      frame.classList.add("dragging");
    });
    frame.addEventListener("pointermove", function (e) {
      if (!drag) return;
      frame.scrollBy(drag[0] - e.clientX, drag[1] - e.clientY);
      drag = [e.clientX, e.clientY];
    });
    function stop() { drag = null; frame.classList.remove("dragging"); }
    frame.addEventListener("pointerup", stop);
    frame.addEventListener("pointercancel", stop);

    var pinch = null;  // two fingers: zoom by their spread, move with their middle
    function two(e) {
      var a = e.touches[0], b = e.touches[1], r = frame.getBoundingClientRect();
      return { d: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) || 1,
               x: (a.clientX + b.clientX) / 2 - r.left, y: (a.clientY + b.clientY) / 2 - r.top };
    }
    frame.addEventListener("touchstart", function (e) {
      if (e.touches.length === 2) { pinch = two(e); pinch.z = z; }
    }, { passive: true });
    frame.addEventListener("touchmove", function (e) {
      if (!pinch || e.touches.length !== 2) return;
      e.preventDefault();
      var now = two(e);
      set(pinch.z * now.d / pinch.d, pinch.x, pinch.y);
      frame.scrollBy(pinch.x - now.x, pinch.y - now.y);
      pinch.x = now.x; pinch.y = now.y; pinch.z = z; pinch.d = now.d;
    }, { passive: false });
    frame.addEventListener("touchend", function (e) {
      if (e.touches.length < 2) pinch = null;
    });

    set(1);
    if (kept && kept.z > 1.001) {  // the same map of the next phase: as it was looked at
      set(kept.z);
      frame.scrollLeft = kept.x * frame.scrollWidth - frame.clientWidth / 2;
      frame.scrollTop = kept.y * frame.scrollHeight - frame.clientHeight / 2;
    }
    return {
      view: function () {
        return { z: z, x: (frame.scrollLeft + frame.clientWidth / 2) / (frame.scrollWidth || 1),
                 y: (frame.scrollTop + frame.clientHeight / 2) / (frame.scrollHeight || 1) };
      }
    };
  }

  window.mobadjZoom = { attach: attach };
}());
