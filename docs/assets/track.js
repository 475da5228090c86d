/* Practice track: lesson progress (localStorage) and the lax.scan step-through widget.
 *
 * Plain JavaScript, no dependencies, no network requests. Listed in `extra_javascript` in
 * mkdocs.yml; engine/overrides/main.html includes it only in pages that contain its elements:
 *   - `.track-done[data-lesson]`    a "Mark as done" button on a lesson page
 *   - `.track-status[data-lesson]`  a status cell in the track page's table
 *   - `.track-progress`, `.track-reset`  the track page's summary line and reset button
 *   - `.scan-viz`                   the scan widget (jit-of-scan lesson); it starts when it
 *                                   comes near the screen, then has the class `scan-viz--ready`
 *
 * The scan widget's values are NOT computed here. The page runs lax.scan at build time and
 * prints the results as JSON in an output block (a code block whose text is a JSON object
 * with a "scanViz" key); the widget reads them from that block. Only a learner's own typed
 * input is computed here, and the widget labels it as a simulation.
 *
 * Its styles live in practice.css; they use Material's CSS variables, so they follow the light
 * and dark colour schemes.
 */
(function () {
  "use strict";

  var STORAGE_KEY = "jitdocs-track-progress-v1";

  /* ------------------------------------------------------------------ progress */

  function readProgress() {
    try {
      var parsed = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "{}");
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch (error) {
      return {}; // storage disabled or corrupt: behave as "nothing done yet"
    }
  }

  function writeProgress(progress) {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(progress));
      return true;
    } catch (error) {
      return false;
    }
  }

  function setDone(lesson, done) {
    var progress = readProgress();
    if (done) {
      progress[lesson] = new Date().toISOString();
    } else {
      delete progress[lesson];
    }
    writeProgress(progress);
    renderProgress();
  }

  function renderProgress() {
    var progress = readProgress();
    each(".track-done[data-lesson]", function (button) {
      var done = Boolean(progress[button.dataset.lesson]);
      button.hidden = false;
      button.setAttribute("aria-pressed", done ? "true" : "false");
      button.textContent = done ? "✓ Done (click to undo)" : "Mark as done";
      button.classList.toggle("track-done--done", done);
    });
    var lessons = [];
    each(".track-status[data-lesson]", function (cell) {
      var done = Boolean(progress[cell.dataset.lesson]);
      lessons.push(done);
      cell.textContent = done ? "✓ Done" : "Not done";
      cell.classList.toggle("track-status--done", done);
    });
    each(".track-progress", function (line) {
      var count = lessons.filter(Boolean).length;
      line.hidden = false;
      line.textContent =
        count + " of " + lessons.length + " lessons done (saved in this browser only).";
    });
    each(".track-reset", function (button) {
      button.hidden = false;
    });
  }

  function initProgress() {
    each(".track-done[data-lesson]", function (button) {
      if (button.dataset.ready) return;
      button.dataset.ready = "1";
      button.addEventListener("click", function () {
        setDone(button.dataset.lesson, button.getAttribute("aria-pressed") !== "true");
      });
    });
    each(".track-reset", function (button) {
      if (button.dataset.ready) return;
      button.dataset.ready = "1";
      button.addEventListener("click", function () {
        writeProgress({});
        renderProgress();
      });
    });
    renderProgress();
  }

  window.addEventListener("storage", function (event) {
    if (event.key === STORAGE_KEY) renderProgress(); // another tab marked a lesson
  });

  /* ------------------------------------------------------------------ scan widget */

  var MAX_CUSTOM = 8;
  var PLAY_MS = 900;
  var f32 = Math.fround;

  // Browser-side versions of the build's step functions, for a learner's own input only.
  // Each rounds to float32 after every operation, as the compiled float32 code does.
  var SIMULATED = {
    sum: function (c, x) { var n = f32(c + x); return [n, n]; },
    product: function (c, x) { var n = f32(c * x); return [n, n]; },
    max: function (c, x) { var n = Math.max(c, x); return [n, n]; },
    ema: function (c, x) { var n = f32(f32(0.5 * c) + f32(0.5 * x)); return [n, n]; },
    diff: function (c, x) { return [x, f32(x - c)]; },
  };

  function toNumber(value) {
    if (value === "Infinity") return Infinity;
    if (value === "-Infinity") return -Infinity;
    return Number(value);
  }

  function format(value) {
    if (value === Infinity) return "∞";
    if (value === -Infinity) return "−∞";
    if (Number.isNaN(value)) return "NaN";
    return String(Number(value.toPrecision(6)));
  }

  function findScanData() {
    var blocks = document.querySelectorAll("pre code, pre");
    for (var i = 0; i < blocks.length; i++) {
      var text = blocks[i].textContent.trim();
      if (text.charAt(0) !== "{" || text.indexOf('"scanViz"') < 0) continue;
      try {
        var data = JSON.parse(text);
        if (data && data.scanViz && Array.isArray(data.ops)) return data;
      } catch (error) {
        /* not the data block (e.g. the Python source that prints it) */
      }
    }
    return null;
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function ScanWidget(root, data) {
    this.root = root;
    this.data = data;
    this.opId = data.ops[0].id;
    this.source = { kind: "preset", name: Object.keys(data.presets)[0] };
    this.position = 0;
    this.timer = null;
    this.build();
    this.load();
  }

  ScanWidget.prototype.op = function () {
    var id = this.opId;
    return this.data.ops.filter(function (op) { return op.id === id; })[0];
  };

  ScanWidget.prototype.build = function () {
    var self = this;
    var uid = "scan-viz-" + Math.random().toString(36).slice(2, 8);
    this.root.textContent = "";
    this.root.classList.add("scan-viz--ready");

    var ops = element("div", { class: "scan-viz__group", role: "group", "aria-label": "Step function" });
    ops.appendChild(element("span", { class: "scan-viz__label" }, "Step function:"));
    this.opButtons = this.data.ops.map(function (op) {
      var button = element("button", { type: "button", "data-op": op.id, "aria-pressed": "false" }, op.label);
      button.addEventListener("click", function () {
        self.opId = op.id;
        self.load();
      });
      ops.appendChild(button);
      return button;
    });

    var inputs = element("div", { class: "scan-viz__group", role: "group", "aria-label": "Input sequence" });
    inputs.appendChild(element("span", { class: "scan-viz__label" }, "Input xs:"));
    this.presetButtons = Object.keys(this.data.presets).map(function (name) {
      var values = self.data.presets[name].map(format).join(", ");
      var button = element("button", { type: "button", "data-preset": name, "aria-pressed": "false" },
        "Preset " + name + ": [" + values + "]");
      button.addEventListener("click", function () {
        self.source = { kind: "preset", name: name };
        self.load();
      });
      inputs.appendChild(button);
      return button;
    });

    var form = element("form", { class: "scan-viz__custom" });
    var label = element("label", { for: uid + "-input" }, "Or type up to " + MAX_CUSTOM + " numbers:");
    this.input = element("input", {
      id: uid + "-input", type: "text", inputmode: "decimal", autocomplete: "off",
      placeholder: "e.g. 3, -1, 2.5", "aria-describedby": uid + "-error",
    });
    var simulate = element("button", { type: "submit", "data-action": "simulate" }, "Simulate");
    this.error = element("span", { id: uid + "-error", class: "scan-viz__error", role: "alert" });
    form.appendChild(label);
    form.appendChild(this.input);
    form.appendChild(simulate);
    form.appendChild(this.error);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      self.simulate(self.input.value);
    });

    this.sourceLine = element("p", { class: "scan-viz__source" });
    this.code = element("code");
    var codeLine = element("pre", { class: "scan-viz__step" });
    codeLine.appendChild(this.code);

    var table = element("table", { class: "scan-viz__table" });
    table.appendChild(element("caption", {}, "One row per step of lax.scan"));
    var head = element("tr");
    ["Step", "x", "carry in", "carry out", "output y"].forEach(function (title) {
      head.appendChild(element("th", { scope: "col" }, title));
    });
    var thead = element("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    this.body = element("tbody");
    table.appendChild(this.body);
    var scroller = element("div", { class: "scan-viz__scroll" });
    scroller.appendChild(table);

    var controls = element("div", { class: "scan-viz__group", role: "group", "aria-label": "Playback" });
    this.stepButton = element("button", { type: "button", "data-action": "step" }, "Step ▸");
    this.playButton = element("button", { type: "button", "data-action": "play", "aria-pressed": "false" }, "Play");
    this.resetButton = element("button", { type: "button", "data-action": "reset" }, "Reset");
    controls.appendChild(this.stepButton);
    controls.appendChild(this.playButton);
    controls.appendChild(this.resetButton);
    this.stepButton.addEventListener("click", function () { self.stop(); self.advance(); });
    this.playButton.addEventListener("click", function () { self.togglePlay(); });
    this.resetButton.addEventListener("click", function () { self.stop(); self.show(0); });

    this.status = element("p", { class: "scan-viz__status", role: "status", "aria-live": "polite" });
    this.result = element("p", { class: "scan-viz__result" });

    [ops, inputs, form, this.sourceLine, codeLine, scroller, controls, this.status, this.result]
      .forEach(function (node) { self.root.appendChild(node); });
  };

  ScanWidget.prototype.load = function () {
    var op = this.op();
    var init = toNumber(op.init);
    var steps;
    if (this.source.kind === "preset") {
      var run = op.runs[this.source.name];
      steps = run.steps.map(function (s) {
        return { x: toNumber(s.x), before: toNumber(s.before), after: toNumber(s.after), y: toNumber(s.y) };
      });
      this.sourceLine.dataset.source = "jax";
      this.sourceLine.textContent =
        "Real JAX values: lax.scan on " + this.data.dtype + " inputs, run under jax.jit when this " +
        "page was built (JAX " + this.data.jax + ").";
    } else {
      steps = this.simulateSteps(op, init, this.source.values);
      this.sourceLine.dataset.source = "simulation";
      this.sourceLine.textContent =
        "Simulation: your input, computed by JavaScript in this browser with float32 rounding, " +
        "not by JAX.";
    }
    this.steps = steps;
    this.init = init;
    var body = Array.isArray(op.step) ? op.step : [String(op.step)];
    this.code.textContent =
      "def step(carry, x):\n" + body.map(function (line) { return "    " + line; }).join("\n") +
      "\n\nfinal, ys = lax.scan(step, " + format(init).replace("−∞", "-jnp.inf") + ", xs)";
    var self = this;
    this.opButtons.forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.op === self.opId));
    });
    this.presetButtons.forEach(function (button) {
      var on = self.source.kind === "preset" && button.dataset.preset === self.source.name;
      button.setAttribute("aria-pressed", String(on));
    });
    this.root.dataset.op = this.opId;
    this.root.dataset.source = this.source.kind === "preset" ? "preset-" + this.source.name : "custom";
    this.stop();
    this.renderRows();
    this.show(0);
  };

  ScanWidget.prototype.simulateSteps = function (op, init, values) {
    var fn = SIMULATED[op.id];
    var carry = f32(init);
    return values.map(function (x) {
      var out = fn(carry, x);
      var step = { x: x, before: carry, after: out[0], y: out[1] };
      carry = out[0];
      return step;
    });
  };

  ScanWidget.prototype.simulate = function (text) {
    var parts = text.split(/[\s,;]+/).filter(function (part) { return part.length > 0; });
    var values = parts.map(Number);
    var problem = "";
    if (parts.length === 0) problem = "Type at least one number.";
    else if (parts.length > MAX_CUSTOM) problem = "At most " + MAX_CUSTOM + " numbers, please.";
    else if (values.some(function (v) { return !Number.isFinite(v); })) {
      problem = "Only plain numbers, separated by commas or spaces.";
    } else if (!SIMULATED[this.opId]) problem = "This step function has no simulation.";
    this.error.textContent = problem;
    this.input.setAttribute("aria-invalid", problem ? "true" : "false");
    if (problem) return;
    this.source = { kind: "custom", values: values.map(f32) };
    this.load();
  };

  ScanWidget.prototype.renderRows = function () {
    var self = this;
    this.body.textContent = "";
    this.rows = this.steps.map(function (step, index) {
      var row = element("tr", { "data-row": String(index) });
      row.appendChild(element("th", { scope: "row" }, String(index + 1)));
      ["x", "before", "after", "y"].forEach(function (field) {
        row.appendChild(element("td", { "data-field": field }));
      });
      self.body.appendChild(row);
      return row;
    });
  };

  ScanWidget.prototype.show = function (position) {
    var self = this;
    var n = this.steps.length;
    this.position = position;
    this.rows.forEach(function (row, index) {
      var step = self.steps[index];
      var visible = index < position;
      row.classList.toggle("scan-viz__row--pending", !visible);
      row.classList.toggle("scan-viz__row--current", index === position - 1);
      if (index === position - 1) row.setAttribute("aria-current", "step");
      else row.removeAttribute("aria-current");
      Array.prototype.forEach.call(row.querySelectorAll("td"), function (cell) {
        var field = cell.dataset.field;
        var value = step[field];
        // x is known up front; the carries and output appear as the scan reaches the step
        var shown = visible || field === "x";
        cell.textContent = shown ? format(value) : "·";
        cell.dataset.value = shown ? String(value) : "";
      });
    });
    this.stepButton.disabled = position >= n;
    var op = this.op();
    if (position === 0) {
      this.status.textContent =
        op.label + ": the carry starts at " + format(this.init) + ". Press Step to run step 1 of " + n + ".";
    } else {
      var s = this.steps[position - 1];
      this.status.textContent =
        "Step " + position + " of " + n + ": x = " + format(s.x) + ", carry " + format(s.before) +
        " → " + format(s.after) + ", output y = " + format(s.y) + "." +
        (position === n ? " Finished." : "");
    }
    if (position === n && n > 0) {
      this.result.textContent =
        "lax.scan returns (final carry, ys) = (" + format(this.steps[n - 1].after) + ", [" +
        this.steps.map(function (s) { return format(s.y); }).join(", ") + "])";
      this.result.dataset.final = String(this.steps[n - 1].after);
    } else {
      this.result.textContent = "";
      this.result.dataset.final = "";
    }
  };

  ScanWidget.prototype.advance = function () {
    if (this.position < this.steps.length) this.show(this.position + 1);
    if (this.position >= this.steps.length) this.stop();
  };

  ScanWidget.prototype.togglePlay = function () {
    if (this.timer) {
      this.stop();
      return;
    }
    var self = this;
    if (this.position >= this.steps.length) this.show(0);
    this.playButton.setAttribute("aria-pressed", "true");
    this.playButton.textContent = "Pause";
    var delay = Number(this.root.dataset.playMs) || PLAY_MS;
    this.timer = window.setInterval(function () { self.advance(); }, delay);
    this.advance();
  };

  ScanWidget.prototype.stop = function () {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    if (this.playButton) {
      this.playButton.setAttribute("aria-pressed", "false");
      this.playButton.textContent = "Play";
    }
  };

  function startScanWidget(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var data = findScanData();
    if (!data) {
      root.textContent = "The scan data block was not found on this page, so the widget cannot start.";
      root.classList.add("scan-viz--broken");
      return;
    }
    root.scanWidget = new ScanWidget(root, data); // adds .scan-viz--ready once it can be used
  }

  /* A widget starts when it comes near the screen, not while the page loads: reading the data
     block and building the table is start-up work a reader who never scrolls there doesn't need. */
  function initScanWidgets() {
    var roots = document.querySelectorAll(".scan-viz:not([data-ready])");
    if (!roots.length) return;
    if (!("IntersectionObserver" in window)) {
      Array.prototype.forEach.call(roots, startScanWidget);
      return;
    }
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        observer.unobserve(entry.target);
        startScanWidget(entry.target);
      });
    }, { rootMargin: "300px 0px" });
    Array.prototype.forEach.call(roots, function (root) { observer.observe(root); });
  }

  /* ------------------------------------------------------------------ start-up */



  function each(selector, fn) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), fn);
  }

  function start() {
    initProgress();
    initScanWidgets();
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start); // Material's page-load stream (also fires on first load)
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
