// The page `segue preview` writes: the HTML and CSS around the data, the pure functions
// (`core`: decoding, the timeline, InteractionTimeline and the gesture rules, drawing) and the
// user interface (`ui`). The page loads nothing: no network, no fonts, no other file.

import Foundation

/// The text of the preview page.
enum PreviewPage {
  /// The HTML and CSS, with `@@GENERATOR@@`, `@@DATA@@`, `@@CORE@@` and `@@UI@@` to fill in.
  static let shell = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="@@GENERATOR@@">
    <title>segue preview</title>
    <style>
    :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #f5f5f7; --panel: #fff; --line: #c7c7cc;
      --accent: #0a63d1; --muted: #5c5c62; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #f2f2f7; --bg: #1c1c1e; --panel: #2c2c2e; --line: #48484a; --accent: #5ea8ff;
        --muted: #aeaeb2; }
    }
    * { box-sizing: border-box; }
    html, body { margin: 0; padding: 0; }
    body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
      background: var(--bg); }
    body.bare { background: #fff; overflow: hidden; }
    .grid { display: grid; gap: 0; }
    .grid canvas { display: block; }
    #app { display: grid; grid-template-columns: minmax(120px, auto) minmax(280px, 1fr); gap: 16px;
      padding: 16px; align-items: start; }
    @media (max-width: 700px) { #app { grid-template-columns: 1fr; } }
    #stage-wrap { min-width: 120px; }
    #stage { display: block; background: #fff; border: 1px solid var(--line); touch-action: none;
      cursor: grab; }
    #stage:active { cursor: grabbing; }
    h1 { font-size: 18px; margin: 0 0 4px; }
    #subtitle { margin: 0 0 12px; color: var(--muted); }
    section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px;
      padding: 12px; margin-bottom: 12px; }
    .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
    button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px;
      background: var(--bg); color: var(--fg); min-width: 64px; }
    button[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
    :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; padding: 4px 8px 8px; }
    legend { color: var(--muted); padding: 0 4px; }
    fieldset label { margin-right: 12px; white-space: nowrap; }
    #scrub { width: 100%; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0 0; }
    dt { color: var(--muted); }
    dd { margin: 0; font-variant-numeric: tabular-nums; }
    #gesture, #keys { color: var(--muted); margin: 8px 0 0; }
    input[type=number] { width: 6em; font: inherit; }
    input[aria-invalid="true"] { outline: 2px solid #d70015; }
    #error { color: #d70015; font-weight: 600; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
      white-space: nowrap; }
    kbd { font: 12px ui-monospace, monospace; border: 1px solid var(--line); border-radius: 3px;
      padding: 0 3px; }
    </style>
    </head>
    <body>
    <main id="app">
      <div id="stage-wrap"><canvas id="stage" role="img" aria-label="transition"></canvas></div>
      <div>
        <h1 id="title">segue preview</h1>
        <p id="subtitle"></p>
        <p id="error" role="alert" hidden></p>
        <section aria-label="Playback">
          <div class="row">
            <button id="play" type="button" aria-pressed="false" aria-keyshortcuts="Space">Play</button>
            <button id="reset" type="button" aria-keyshortcuts="R">Reset</button>
            <button id="loop" type="button" aria-pressed="true" aria-keyshortcuts="L">Loop</button>
          </div>
          <div class="row">
            <label for="speed">Speed</label>
            <input id="speed" type="range" min="0" max="8" step="1" value="4"
              aria-keyshortcuts="[ ]">
            <output id="speed-out" for="speed">1×</output>
          </div>
          <fieldset id="ops"><legend>Operation</legend></fieldset>
          <fieldset><legend>Timeline</legend>
            <label><input type="radio" name="timeline" value="animation"> Animation</label>
            <label id="events-choice"><input type="radio" name="timeline" value="events">
              Scripted interaction</label>
            <label><input type="radio" name="timeline" value="drag"> Your last drag</label>
          </fieldset>
          <div class="row">
            <label for="scrub">Time</label>
          </div>
          <input id="scrub" type="range" min="0" max="1" step="any" value="0"
            aria-keyshortcuts="ArrowLeft ArrowRight Home End">
          <dl>
            <dt>Time</dt><dd id="time"></dd>
            <dt>Progress</dt><dd id="progress"></dd>
            <dt>Animation time</dt><dd id="animation-time"></dd>
            <dt>Phase</dt><dd id="phase"></dd>
            <dt>Frame</dt><dd id="frame"></dd>
          </dl>
        </section>
        <section aria-label="Interaction">
          <div class="row">
            <label for="completion-speed">completionSpeed</label>
            <input id="completion-speed" type="number" min="0.05" step="0.05" value="1">
            <label for="rule">Release</label>
            <select id="rule">
              <option value="threshold">the preset's threshold</option>
              <option value="velocity">velocity, then threshold</option>
            </select>
          </div>
          <div>Completion curve: <span id="curve"></span></div>
          <p id="gesture"></p>
          <p id="keys"><kbd>Space</kbd> play/pause · <kbd>←</kbd> <kbd>→</kbd> one frame
            (<kbd>Shift</kbd>: ten) · <kbd>Home</kbd> <kbd>End</kbd> · <kbd>L</kbd> loop ·
            <kbd>R</kbd> reset · <kbd>[</kbd> <kbd>]</kbd> speed</p>
        </section>
        <div id="announce" class="sr" aria-live="polite"></div>
      </div>
    </main>
    <script type="application/json" id="segue-data">@@DATA@@</script>
    <script id="segue-core">
    @@CORE@@
    </script>
    <script id="segue-ui">
    @@UI@@
    </script>
    </body>
    </html>
    """#

  /// The pure functions, `globalThis.SeguePreview` (no DOM; the tests run them in Node).
  static let core = #"""
    'use strict';
    // The preview's pure functions (no DOM): data decoding, the sampled timeline, the percent-driven
    // interaction and the gesture rules, and the drawing of one frame onto any 2D context.
    // Exported as globalThis.SeguePreview so that tests can run them in Node.
    const SeguePreview = (() => {
      /** Little-endian Float32 or Float64 values from base64 text. */
      function decodeFloats(text, bytes) {
        const binary = atob(text);
        const view = new DataView(new ArrayBuffer(binary.length));
        for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
        const n = Math.floor(binary.length / bytes);
        const out = new Array(n);
        for (let i = 0; i < n; i++) {
          out[i] = bytes === 4 ? view.getFloat32(4 * i, true) : view.getFloat64(8 * i, true);
        }
        return out;
      }

      /**
       * The frames of one Float32 stream: per frame its item count, its clip count and clips,
       * then per item either [0, layer] or [1, snapshot count, per snapshot: weight, layer count,
       * layers]. A clip is [outer, x, y, width, height, radius, maskedCorners, h0 … h8]: a masking
       * layer's rounded bounds through its homography, inside clip outer (−1: none). A layer is
       * [snapshot index, opacity, bounds x, y, width, height, h0 … h8, clip, n, x1, y1 … xn, yn]:
       * clip its innermost clip (−1: none), n = 0 for a layer drawn whole, else the piece of its
       * plane drawn (a depth-sorted layer's).
       */
      function decodeFrames(values) {
        const frames = [];
        let i = 0;
        const layer = () => {
          const l = {
            snap: values[i], opacity: values[i + 1], bounds: values.slice(i + 2, i + 6),
            h: values.slice(i + 6, i + 15), clip: values[i + 15],
          };
          const n = values[i + 16];
          i += 17;
          if (n > 0) {
            l.piece = [];
            for (let k = 0; k < n; k++, i += 2) l.piece.push([values[i], values[i + 1]]);
          }
          return l;
        };
        while (i < values.length) {
          const count = values[i++];
          const clips = [];
          const clipCount = values[i++];
          for (let k = 0; k < clipCount; k++, i += 16) {
            clips.push({
              outer: values[i], bounds: values.slice(i + 1, i + 5), radius: values[i + 5],
              mask: values[i + 6], h: values.slice(i + 7, i + 16),
            });
          }
          const items = [];
          for (let k = 0; k < count; k++) {
            if (values[i++] === 0) {
              items.push({ kind: 'layer', layer: layer() });
              continue;
            }
            const snapshots = [];
            const m = values[i++];
            for (let s = 0; s < m; s++) {
              const weight = values[i++];
              const n = values[i++];
              const layers = [];
              for (let j = 0; j < n; j++) layers.push(layer());
              snapshots.push({ weight, layers });
            }
            items.push({ kind: 'dissolve', snapshots });
          }
          frames.push({ items, clips });
        }
        if (i !== values.length) throw new Error('frame data: length mismatch');
        return frames;
      }

      /** A path fill's polygons, [[u, v], …] each, from its Float32 stream (n, x1, y1 … xn, yn). */
      function decodePolygons(fill) {
        const values = decodeFloats(fill.polygons, 4);
        const polys = [];
        let i = 0;
        while (i < values.length) {
          const n = values[i++];
          const points = [];
          for (let k = 0; k < n; k++, i += 2) points.push([values[i], values[i + 1]]);
          polys.push(points);
        }
        return polys;
      }

      /** A scene of the data with its frames decoded. */
      function prepareScene(scene) {
        const decoded = decodeFrames(decodeFloats(scene.frames, 4));
        const count = scene.runningFrameCount;
        if (decoded.length !== count + 2) throw new Error('frame data: frame count mismatch');
        for (const s of scene.snapshots) {
          for (const fill of (s.paint && s.paint.paths) || []) fill.polys = decodePolygons(fill);
        }
        return Object.assign({}, scene, {
          running: decoded.slice(0, count), finished: decoded[count], cancelled: decoded[count + 1],
        });
      }

      /** Animation time of running frame k: k/fps, the last one the duration. */
      function frameTime(scene, k) {
        return k === scene.running.length - 1 ? scene.duration : k / scene.fps;
      }

      /** The index of the running frame at or before animation time a. */
      function frameIndex(scene, a) {
        const n = scene.running.length;
        if (!(a > 0)) return 0;
        if (a >= scene.duration) return n - 1;
        let k = Math.min(Math.floor(a * scene.fps), n - 1);
        while (k > 0 && frameTime(scene, k) > a) k--;
        while (k + 1 < n && frameTime(scene, k + 1) <= a) k++;
        return k;
      }

      function lerp(a, b, f) { return a + (b - a) * f; }

      /** Whether two frames hold the same items (kinds, layer ids, clips, dissolve shapes). */
      function sameShape(snaps, a, b) {
        if (a.items.length !== b.items.length || a.clips.length !== b.clips.length) return false;
        if (a.clips.some((c, k) => c.outer !== b.clips[k].outer)) return false;
        const same = (x, y) => snaps[x.snap].id === snaps[y.snap].id && x.clip === y.clip
          && (x.piece ? x.piece.length : 0) === (y.piece ? y.piece.length : 0);
        for (let k = 0; k < a.items.length; k++) {
          const x = a.items[k];
          const y = b.items[k];
          if (x.kind !== y.kind) return false;
          if (x.kind === 'layer') {
            if (!same(x.layer, y.layer)) return false;
            continue;
          }
          if (x.snapshots.length !== y.snapshots.length) return false;
          for (let s = 0; s < x.snapshots.length; s++) {
            const p = x.snapshots[s].layers;
            const q = y.snapshots[s].layers;
            if (p.length !== q.length) return false;
            for (let j = 0; j < p.length; j++) if (!same(p[j], q[j])) return false;
          }
        }
        return true;
      }

      /** h scaled so that the bounds' centre has w = 1 (when it is in front of the eye). */
      function normalized(l, minimumW) {
        const b = l.bounds;
        const h = l.h;
        const cx = b[0] + b[2] / 2;
        const cy = b[1] + b[3] / 2;
        const w = cx * h[2] + cy * h[5] + h[8];
        return w > minimumW ? h.map((v) => v / w) : h;
      }

      function lerpLayer(a, b, f, minimumW) {
        const ha = normalized(a, minimumW);
        const hb = normalized(b, minimumW);
        const l = {
          snap: a.snap, snapB: b.snap, mix: f, opacity: lerp(a.opacity, b.opacity, f),
          bounds: a.bounds.map((v, i) => lerp(v, b.bounds[i], f)),
          h: ha.map((v, i) => lerp(v, hb[i], f)), clip: a.clip,
        };
        if (a.piece) l.piece = a.piece.map((p, k) => p.map((v, j) => lerp(v, b.piece[k][j], f)));
        return l;
      }

      /** Clip a of one frame towards clip b of the next by f. */
      function lerpClip(a, b, f, minimumW) {
        const ha = normalized(a, minimumW);
        const hb = normalized(b, minimumW);
        return {
          outer: a.outer, mask: a.mask, radius: lerp(a.radius, b.radius, f),
          bounds: a.bounds.map((v, i) => lerp(v, b.bounds[i], f)),
          h: ha.map((v, i) => lerp(v, hb[i], f)),
        };
      }

      /**
       * The running scene at animation time a: the sampled frame when a is a sample time, else the
       * two frames around it interpolated (matrices after normalising w at the layer's centre,
       * bounds, clips, opacities, weights, colours and looks), or the earlier frame when they
       * differ in shape (a layer added or removed between them).
       */
      function runningFrame(scene, a, snaps, minimumW) {
        const k = frameIndex(scene, a);
        const n = scene.running.length;
        const t0 = frameTime(scene, k);
        if (k === n - 1 || a <= t0) return scene.running[k];
        const A = scene.running[k];
        const B = scene.running[k + 1];
        if (!sameShape(snaps, A, B)) return A;
        const f = (a - t0) / (frameTime(scene, k + 1) - t0);
        return {
          clips: A.clips.map((c, i) => lerpClip(c, B.clips[i], f, minimumW)),
          items: A.items.map((x, i) => {
            const y = B.items[i];
            if (x.kind === 'layer') {
              return { kind: 'layer', layer: lerpLayer(x.layer, y.layer, f, minimumW) };
            }
            return {
              kind: 'dissolve',
              snapshots: x.snapshots.map((s, j) => ({
                weight: lerp(s.weight, y.snapshots[j].weight, f),
                layers: s.layers.map((l, m) => lerpLayer(l, y.snapshots[j].layers[m], f, minimumW)),
              })),
            };
          }),
        };
      }

      // MARK: The percent-driven interaction (InteractionTimeline)

      /** The completion curve c(s) from its table of c(i/n), i = 0…n, linearly interpolated. */
      function curveValue(table, s) {
        const n = table.length - 1;
        const x = Math.min(Math.max(s, 0), 1) * n;
        const i = Math.min(Math.floor(x), n - 1);
        return lerp(table[i], table[i + 1], x - i);
      }

      function completionRun(tl, p0, start, finishing, t) {
        const length = (finishing ? 1 - p0 : p0) * tl.duration / tl.completionSpeed;
        const end = start + length;
        if (t >= end || !(length > 0)) {
          return { position: finishing ? 1 : 0, phase: 'completed', finished: finishing,
            completionTime: end };
        }
        const eased = curveValue(tl.curve, (t - start) / length);
        const raw = finishing ? p0 + (1 - p0) * eased : p0 - p0 * eased;
        const position = Number.isFinite(raw) ? Math.min(Math.max(raw, 0), 1) : (finishing ? 1 : 0);
        return { position, phase: finishing ? 'finishing' : 'cancelling', finished: null,
          completionTime: end };
      }

      /**
       * The state at wall time t of a history tl = {duration, completionSpeed, curve (table),
       * wantsInteractiveStart, events: [{time, type: 'update' | 'pause' | 'finish' | 'cancel',
       * percent}]}: the rules of Segue's InteractionTimeline.state(at:).
       */
      function interactionState(tl, t) {
        let position = 0;
        let runningFromStart = !tl.wantsInteractiveStart;
        for (const e of tl.events) {
          if (!(e.time <= t)) continue;
          if (runningFromStart) {
            position = Math.min(e.time / tl.duration, 1);
            runningFromStart = false;
          }
          if (e.type === 'update') position = Math.min(Math.max(e.percent, 0), 1);
          else if (e.type === 'finish') return completionRun(tl, position, e.time, true, t);
          else if (e.type === 'cancel') return completionRun(tl, position, e.time, false, t);
        }
        if (runningFromStart) {
          if (t >= tl.duration) {
            return { position: 1, phase: 'completed', finished: true, completionTime: tl.duration };
          }
          return { position: t / tl.duration, phase: 'running', finished: null, completionTime: null };
        }
        return { position, phase: 'interacting', finished: null, completionTime: null };
      }

      /** The last moment worth showing: the duration, the last event, the completion. */
      function interactionEnd(tl) {
        let end = tl.duration;
        if (tl.events.length === 0) return end;
        const last = tl.events[tl.events.length - 1].time;
        end = Math.max(end, last);
        const state = interactionState(tl, last);
        if (state.completionTime !== null) end = Math.max(end, state.completionTime);
        return end;
      }

      // MARK: Gesture rules (GestureRules)

      function gestureBegins(r, sample) {
        return r.edgeLimit === null || sample.location.x <= r.edgeLimit;
      }

      function gesturePercent(r, sample) {
        const v = r.input === 'location.x' ? sample.location.x : sample.translation.x;
        return Math.min(Math.max(v / r.span, 0), r.cap);
      }

      function thresholdDecision(r, sample, cancelled) {
        if (cancelled && r.cancelsCancelledGestures) return 'cancel';
        return gesturePercent(r, sample) > r.threshold ? 'finish' : 'cancel';
      }

      /** The release decision under 'threshold' or 'velocity' (GestureDriver.release). */
      function gestureRelease(r, sample, cancelled, rule) {
        if (rule === 'velocity') {
          if (cancelled && r.cancelsCancelledGestures) return 'cancel';
          const v = sample.velocity.x;
          if (Math.abs(v) >= r.containerWidth) return v > 0 ? 'finish' : 'cancel';
        }
        return thresholdDecision(r, sample, cancelled);
      }

      // MARK: A drag driving the interaction

      /** The window over which a drag's velocity is measured, seconds of the page's clock. */
      const VELOCITY_WINDOW = 0.1;

      /**
       * Begins a drag at `location` (container points) at timeline time `time` (seconds) into the
       * history `tl` (its events are appended to), or returns null when the rules say this gesture
       * starts nothing. Nothing is recorded until the first move: the position stays 0.
       */
      function beginDrag(rules, releaseRule, tl, location, time) {
        const first = { location, translation: { x: 0, y: 0 }, velocity: { x: 0, y: 0 } };
        if (!gestureBegins(rules, first)) return null;
        return {
          rules, releaseRule, tl, origin: location, last: first, time,
          samples: [{ time, x: location.x, y: location.y }], decision: null,
        };
      }

      /**
       * A move: the gesture sample (translation from the start, velocity over the last 0.1 s) and
       * update(percent) at `time` (never before the previous event).
       */
      function moveDrag(drag, location, time) {
        const t = Math.max(time, drag.time);
        drag.time = t;
        drag.samples.push({ time: t, x: location.x, y: location.y });
        while (drag.samples.length > 2 && t - drag.samples[0].time > VELOCITY_WINDOW) {
          drag.samples.shift();
        }
        const first = drag.samples[0];
        const dt = t - first.time;
        const velocity = dt > 0
          ? { x: (location.x - first.x) / dt, y: (location.y - first.y) / dt } : { x: 0, y: 0 };
        drag.last = {
          location, velocity,
          translation: { x: location.x - drag.origin.x, y: location.y - drag.origin.y },
        };
        drag.tl.events.push({ time: t, type: 'update', percent: gesturePercent(drag.rules, drag.last) });
      }

      /**
       * The release (or, `cancelled`, the recognizer's cancellation) at `time`: a last move when the
       * pointer moved since, then finish() or cancel() as the release rule decides. Returns it.
       */
      function endDrag(drag, location, time, cancelled) {
        const moved = location.x !== drag.last.location.x || location.y !== drag.last.location.y;
        if (!cancelled && moved) moveDrag(drag, location, time);
        const decision = gestureRelease(drag.rules, drag.last, cancelled, drag.releaseRule);
        drag.time = Math.max(time, drag.time);
        drag.tl.events.push({ time: drag.time, type: decision });
        drag.decision = decision;
        return decision;
      }

      // MARK: Drawing

      /** ceil(4x − ½)/4: the edge position whose area coverage equals the 4×4 sample count. */
      function snap(x) { return Math.ceil(4 * x - 0.5) / 4; }

      /**
       * The visible polygon of the layer rectangle [x0, x1] × [y0, y1] through h, in pixels of
       * scale s (projectPolygon of its corners).
       */
      function projectRect(h, x0, y0, x1, y1, s, minimumW) {
        return projectPolygon(h, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], s, minimumW);
      }

      /**
       * The visible polygon of a convex polygon of layer points through h, in pixels of scale s:
       * vertices to homogeneous (X, Y, W), clipped against W ≥ minimumW (Sutherland–Hodgman, as
       * Transform3D.mapPolygon), divided, scaled and snapped.
       */
      function projectPolygon(h, points, s, minimumW) {
        const corners = points.map(([u, v]) => [
          u * h[0] + v * h[3] + h[6], u * h[1] + v * h[4] + h[7], u * h[2] + v * h[5] + h[8]]);
        const clipped = [];
        const n = corners.length;
        for (let i = 0; i < n; i++) {
          const a = corners[i];
          const b = corners[(i + 1) % n];
          const aIn = a[2] >= minimumW;
          if (aIn) clipped.push(a);
          if (aIn !== (b[2] >= minimumW)) {
            const t = (minimumW - a[2]) / (b[2] - a[2]);
            clipped.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), minimumW]);
          }
        }
        return clipped.map(([X, Y, W]) => {
          const w = Math.max(W, minimumW);
          return [snap(s * X / w), snap(s * Y / w)];
        });
      }

      function addPolygon(path, points) {
        if (points.length < 3) return;
        path.moveTo(points[0][0], points[0][1]);
        for (let i = 1; i < points.length; i++) path.lineTo(points[i][0], points[i][1]);
        path.closePath();
      }

      function css(c) {
        return `rgba(${255 * c[0]}, ${255 * c[1]}, ${255 * c[2]}, ${c[3]})`;
      }

      /**
       * Draws a decoded frame onto ctx (a w × h pixel canvas at scale s pixels per point): white,
       * then each item in draw order. A layer is drawn through its homography, inside its clips,
       * at its opacity with its blend (drawLayer). A cross-dissolve sums its snapshots
       * ('lighter': clamp(Σ wₖ·Sₖ)) on a cleared canvas and composites that "over".
       * env = {snaps, scale, minimumW, scratch(name, w, h) → canvas}.
       */
      function drawFrame(ctx, frame, env) {
        const w = ctx.canvas.width;
        const h = ctx.canvas.height;
        env = Object.assign({}, env, { clips: frame.clips || [] });
        reset(ctx);
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, w, h);
        for (const item of frame.items) {
          if (item.kind === 'layer') {
            drawLayer(ctx, item.layer, item.layer.opacity, 'source-over', env);
            continue;
          }
          const sum = env.scratch('sum', w, h);
          const sctx = sum.getContext('2d');
          reset(sctx);
          sctx.clearRect(0, 0, w, h);
          for (const s of item.snapshots) {
            if (!(s.weight > 0) || s.layers.length === 0) continue;
            if (s.layers.length === 1) {
              drawLayer(sctx, s.layers[0], s.weight * s.layers[0].opacity, 'lighter', env);
              continue;
            }
            const group = env.scratch('group', w, h);
            const gctx = group.getContext('2d');
            reset(gctx);
            gctx.clearRect(0, 0, w, h);
            for (const l of s.layers) drawLayer(gctx, l, l.opacity, 'source-over', env);
            sctx.globalAlpha = Math.min(s.weight, 1);
            sctx.globalCompositeOperation = 'lighter';
            sctx.drawImage(group, 0, 0);
            reset(sctx);
          }
          ctx.drawImage(sum, 0, 0);
        }
      }

      function reset(ctx) {
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.globalAlpha = 1;
        ctx.globalCompositeOperation = 'source-over';
      }

      /** The layer's fill colour: its snapshot's, mixed with the next frame's when interpolated. */
      function layerColor(l, snaps) {
        return look(l, snaps, 'color');
      }

      /**
       * The snapshot's member key (shape, border, shadow, color: arrays of numbers) mixed with the
       * next frame's when interpolated and both have it (maskedCorners is not mixed).
       */
      function look(l, snaps, key) {
        const a = snaps[l.snap][key];
        if (l.snapB === undefined || l.snapB === l.snap || !a) return a;
        const b = snaps[l.snapB][key];
        if (!b || b.length !== a.length) return a;
        return a.map((v, i) => (key === 'shape' && i === 1 ? v : lerp(v, b[i], l.mix)));
      }

      /** min(max(r, 0), width/2, height/2): the corner radius the renderer draws. */
      function clampedRadius(x0, y0, x1, y1, r) {
        return Math.max(0, Math.min(r, (x1 - x0) / 2, (y1 - y0) / 2));
      }

      /**
       * The outline of the rectangle [x0, x1] × [y0, y1] with the corners of mask rounded to the
       * clamped radius r (as RoundedRect.outline): clockwise from the top-left corner, ARC
       * segments per rounded corner's quarter arc (16: within r·(1 − cos(π/64)) ≈ 0.001·r of
       * the arc). Empty when the rectangle is.
       */
      const ARC = 16;
      function roundedOutline(x0, y0, x1, y1, r, mask) {
        if (!(x0 < x1 && y0 < y1)) return [];
        const rho = clampedRadius(x0, y0, x1, y1, r);
        const corners = [
          [1, x0 + rho, y0 + rho, Math.PI], [2, x1 - rho, y0 + rho, 1.5 * Math.PI],
          [8, x1 - rho, y1 - rho, 0], [4, x0 + rho, y1 - rho, 0.5 * Math.PI],
        ];
        const points = [];
        for (const [bit, cx, cy, start] of corners) {
          if (!(rho > 0) || !(mask & bit)) {
            points.push([bit & 5 ? x0 : x1, bit & 3 ? y0 : y1]);
            continue;
          }
          for (let i = 0; i <= ARC; i++) {
            const angle = start + 0.5 * Math.PI * i / ARC;
            points.push([cx + rho * Math.cos(angle), cy + rho * Math.sin(angle)]);
          }
        }
        return points;
      }

      /** The layer's rounded bounds [x0, y0, x1, y1, r, mask] (r unclamped; 0 without one). */
      function layerShape(l, snaps) {
        const [x, y, w, h] = l.bounds;
        const [r, mask] = look(l, snaps, 'shape') || [0, 0];
        return [x, y, x + w, y + h, r, mask];
      }

      /** Clips ctx to the layer's clips (its masking ancestors' rounded bounds) and its piece. */
      function clipLayer(ctx, l, env) {
        for (let k = l.clip; k >= 0; k = env.clips[k].outer) {
          const c = env.clips[k];
          const [x, y, w, h] = c.bounds;
          const path = new Path2D();
          addPolygon(path, projectPolygon(
            c.h, roundedOutline(x, y, x + w, y + h, c.radius, c.mask), env.scale, env.minimumW));
          ctx.clip(path);
        }
        if (l.piece) {
          const path = new Path2D();
          addPolygon(path, projectPolygon(l.h, l.piece, env.scale, env.minimumW));
          ctx.clip(path);
        }
      }

      /**
       * Draws one layer (the renderer's raster layer): inside its clips, its shadow, then its fill
       * (the rounded bounds) and paint, or, for the raster layer of its border alone (after its
       * sublayers), the border, each composited at alpha with operation as the renderer does.
       */
      function drawLayer(ctx, l, alpha, operation, env) {
        if (!(alpha > 0)) return;
        ctx.save();
        clipLayer(ctx, l, env);
        const shadow = look(l, env.snaps, 'shadow');
        if (shadow) drawShadow(ctx, l, shadow, alpha, operation, env);
        const border = look(l, env.snaps, 'border');
        if (border) drawBorder(ctx, l, border, alpha, operation, env);
        drawBody(ctx, l, alpha, operation, env);
        ctx.restore();
        reset(ctx);
      }

      /** The fill (rounded bounds) and the paint over it. */
      function drawBody(ctx, l, alpha, operation, env) {
        const snapshot = env.snaps[l.snap];
        const body = snapshot.body !== false;
        if (!body && !snapshot.paint) return;
        const [x0, y0, x1, y1, r, mask] = layerShape(l, env.snaps);
        const outline = projectPolygon(
          l.h, roundedOutline(x0, y0, x1, y1, r, mask), env.scale, env.minimumW);
        if (outline.length < 3) return;
        const fill = new Path2D();
        addPolygon(fill, outline);
        let target = ctx;
        const direct = !snapshot.paint || (alpha >= 1 && operation === 'source-over');
        if (!direct) {
          target = env.scratch('layer', ctx.canvas.width, ctx.canvas.height).getContext('2d');
          reset(target);
          target.clearRect(0, 0, target.canvas.width, target.canvas.height);
        } else {
          ctx.globalAlpha = Math.min(alpha, 1);
          ctx.globalCompositeOperation = operation;
        }
        if (body) {
          target.fillStyle = css(layerColor(l, env.snaps));
          target.fill(fill);
        }
        if (snapshot.paint) drawPaint(target, l, snapshot.paint, env);
        if (!direct) {
          ctx.globalAlpha = Math.min(alpha, 1);
          ctx.globalCompositeOperation = operation;
          ctx.drawImage(target.canvas, 0, 0);
        }
        reset(ctx);
      }

      /**
       * The border [width, r, g, b, a]: the rounded bounds minus the inner rounded rectangle inset
       * by the width (corner radius max(ρ − width, 0)), even-odd, as the renderer draws it.
       */
      function drawBorder(ctx, l, border, alpha, operation, env) {
        const [width, ...color] = border;
        if (!(width > 0)) return;
        const [x0, y0, x1, y1, r, mask] = layerShape(l, env.snaps);
        const rho = clampedRadius(x0, y0, x1, y1, r);
        const path = new Path2D();
        const project = (points) => projectPolygon(l.h, points, env.scale, env.minimumW);
        addPolygon(path, project(roundedOutline(x0, y0, x1, y1, rho, mask)));
        addPolygon(path, project(roundedOutline(
          x0 + width, y0 + width, x1 - width, y1 - width, Math.max(rho - width, 0), mask)));
        ctx.globalAlpha = Math.min(alpha, 1);
        ctx.globalCompositeOperation = operation;
        ctx.fillStyle = css(color);
        ctx.fill(path, 'evenodd');
        reset(ctx);
      }

      /**
       * The shadow [r, g, b, a, σ, dx, dy] (LayerSnapshot.Shadow): the rounded bounds moved by
       * (dx, dy), blurred by a Gaussian of standard deviation σ in layer units. It is drawn in
       * layer space onto a scratch canvas of k pixels per layer unit (about the layer's own
       * pixels per unit) with the canvas filter blur(σ·k px), 5σ around the shape (where the
       * renderer's coverage ends), and that image is drawn through the layer's homography: its
       * affine map, or a mesh under perspective. So the blur is transformed with the layer, as
       * the renderer's is.
       */
      const SHADOW_SIDE = 2048;
      function drawShadow(ctx, l, shadow, alpha, operation, env) {
        const [r, g, b, a, sigma, dx, dy] = shadow;
        if (!(a > 0)) return;
        const [x0, y0, x1, y1, radius, mask] = layerShape(l, env.snaps);
        const shape = [x0 + dx, y0 + dy, x1 + dx, y1 + dy];
        const rho = clampedRadius(x0, y0, x1, y1, radius);
        const reach = 5 * Math.max(sigma, 0);
        const rect = [shape[0] - reach, shape[1] - reach, shape[2] + reach, shape[3] + reach];
        const [w, h] = [rect[2] - rect[0], rect[3] - rect[1]];
        if (!(w > 0 && h > 0)) return;
        const k = Math.min(pixelsPerUnit(l.h, rect, env), SHADOW_SIDE / Math.max(w, h));
        const image = env.scratch('shadow', Math.ceil(w * k), Math.ceil(h * k));
        const sctx = image.getContext('2d');
        reset(sctx);
        sctx.clearRect(0, 0, image.width, image.height);
        sctx.filter = sigma > 0 ? `blur(${sigma * k}px)` : 'none';
        sctx.setTransform(k, 0, 0, k, -rect[0] * k, -rect[1] * k);
        sctx.fillStyle = css([r, g, b, a]);
        sctx.fill(bodyPath([shape[0], shape[1], shape[2], shape[3], rho, mask]));
        sctx.filter = 'none';
        reset(sctx);
        const place = (c) => c.drawImage(image, rect[0], rect[1], image.width / k, image.height / k);
        if (isAffine(l.h, env.minimumW)) {
          const [m11, m12, , m21, m22, , m41, m42, m44] = l.h;
          const s = env.scale / m44;
          ctx.globalAlpha = Math.min(alpha, 1);
          ctx.globalCompositeOperation = operation;
          ctx.setTransform(m11 * s, m12 * s, m21 * s, m22 * s, m41 * s, m42 * s);
          place(ctx);
          reset(ctx);
          return;
        }
        const projected = projectImage(image, l.h, rect, k, ctx.canvas, env);
        if (!projected) return;
        ctx.globalAlpha = Math.min(alpha, 1);
        ctx.globalCompositeOperation = operation;
        ctx.drawImage(projected.canvas, projected.x, projected.y);
        reset(ctx);
      }

      /**
       * image (k pixels per layer unit, its top-left corner at the layer point (rect[0], rect[1]))
       * through the homography h under perspective, sampled per device pixel: each pixel centre
       * mapped back to the layer plane (in front of the eye) and the image read there bilinearly,
       * as the renderer maps pixels back; no mesh, so no seams in a translucent image. Returns a
       * scratch canvas and its pixel position, or null when nothing is visible.
       */
      function projectImage(image, h, rect, k, target, env) {
        const s = env.scale;
        const outline = projectRect(h, rect[0], rect[1], rect[2], rect[3], s, env.minimumW);
        if (outline.length < 3) return null;
        const xs = outline.map((p) => p[0]);
        const ys = outline.map((p) => p[1]);
        const x0 = Math.max(Math.floor(Math.min(...xs)), 0);
        const y0 = Math.max(Math.floor(Math.min(...ys)), 0);
        const x1 = Math.min(Math.ceil(Math.max(...xs)), target.width);
        const y1 = Math.min(Math.ceil(Math.max(...ys)), target.height);
        if (!(x1 > x0 && y1 > y0)) return null;
        // [u v 1]·H = W·[X/s Y/s 1]: the inverse by the adjugate (any scale works).
        const [a, b, c, d, e, f, g, m, n] = h;
        const inv = [
          e * n - f * m, c * m - b * n, b * f - c * e,
          f * g - d * n, a * n - c * g, c * d - a * f,
          d * m - e * g, b * g - a * m, a * e - b * d,
        ];
        const [iw, ih] = [image.width, image.height];
        const data = image.getContext('2d').getImageData(0, 0, iw, ih).data;
        // Premultiplied texels, so that bilinear weights mix colours as the renderer does.
        const texels = new Float32Array(4 * iw * ih);
        for (let t = 0; t < iw * ih; t++) {
          const alpha = data[4 * t + 3] / 255;
          for (let ch = 0; ch < 3; ch++) texels[4 * t + ch] = data[4 * t + ch] * alpha;
          texels[4 * t + 3] = data[4 * t + 3];
        }
        const texel = (p, q, ch) => (p < 0 || q < 0 || p >= iw || q >= ih
          ? 0 : texels[4 * (q * iw + p) + ch]);
        const out = new ImageData(x1 - x0, y1 - y0);
        for (let y = y0; y < y1; y++) {
          for (let x = x0; x < x1; x++) {
            const X = (x + 0.5) / s;
            const Y = (y + 0.5) / s;
            const q = X * inv[2] + Y * inv[5] + inv[8];
            const u = (X * inv[0] + Y * inv[3] + inv[6]) / q;
            const v = (X * inv[1] + Y * inv[4] + inv[7]) / q;
            if (!(u * c + v * f + n >= env.minimumW)) continue;
            const i = (u - rect[0]) * k - 0.5;
            const j = (v - rect[1]) * k - 0.5;
            if (!(i > -1 && j > -1 && i < iw && j < ih)) continue;
            const i0 = Math.floor(i);
            const j0 = Math.floor(j);
            const o = 4 * ((y - y0) * (x1 - x0) + (x - x0));
            const sample = [0, 0, 0, 0];
            for (let ch = 0; ch < 4; ch++) {
              const top = lerp(texel(i0, j0, ch), texel(i0 + 1, j0, ch), i - i0);
              const bottom = lerp(texel(i0, j0 + 1, ch), texel(i0 + 1, j0 + 1, ch), i - i0);
              sample[ch] = lerp(top, bottom, j - j0);
            }
            const alpha = sample[3] / 255;
            if (!(alpha > 0)) continue;
            for (let ch = 0; ch < 3; ch++) out.data[o + ch] = sample[ch] / alpha;
            out.data[o + 3] = sample[3];
          }
        }
        const canvas = env.scratch('projected', x1 - x0, y1 - y0);
        canvas.getContext('2d').putImageData(out, 0, 0);
        return { canvas, x: x0, y: y0 };
      }

      /**
       * Device pixels per layer unit of the rectangle through h: the larger of its projected top
       * and right sides over their lengths (the whole outline's longest side over the rectangle's
       * when the eye plane cuts it), at least 1/4.
       */
      function pixelsPerUnit(h, rect, env) {
        const [x0, y0, x1, y1] = rect;
        const p = projectRect(h, x0, y0, x1, y1, env.scale, env.minimumW);
        const side = (i) => Math.hypot(p[i + 1][0] - p[i][0], p[i + 1][1] - p[i][1]);
        if (p.length === 4) return Math.max(side(0) / (x1 - x0), side(1) / (y1 - y0), 0.25);
        let longest = 0;
        for (let i = 0; i + 1 < p.length; i++) longest = Math.max(longest, side(i));
        return Math.max(longest / Math.max(x1 - x0, y1 - y0), 0.25);
      }

      /**
       * What a layer draws over its fill, in its own coordinates (the renderer's order): its
       * contents image, its gradient (both drawn through the layer's affine map when its
       * homography has no perspective, else through a mesh of small triangles, each mapped
       * affinely: canvas transforms are 2D affine), then its paths (a shape's fill and stroke, a
       * text layer's glyph outlines), projected point by point, exactly.
       */
      function drawPaint(ctx, l, paint, env) {
        const image = paint.contents && env.images ? env.images[paint.contents.image] : null;
        const parts = [];
        if (image) parts.push((c) => drawContents(c, paint.contents, paint.body, image));
        if (paint.gradient) parts.push((c) => drawGradient(c, paint.gradient, paint.body));
        for (const part of parts) {
          if (isAffine(l.h, env.minimumW)) {
            const [a, b, , c, d, , e, f, w] = l.h;
            const k = env.scale / w;
            ctx.setTransform(a * k, b * k, c * k, d * k, e * k, f * k);
            part(ctx);
            ctx.setTransform(1, 0, 0, 1, 0, 0);
          } else {
            meshed(ctx, l.h, extent(paint), part, env);
          }
        }
        for (const fill of paint.paths || []) {
          const path = new Path2D();
          for (const poly of fill.polys) addPolygon(path, projectPolygon(l.h, poly, env.scale, env.minimumW));
          ctx.fillStyle = css(fill.color);
          ctx.fill(path, fill.rule);
        }
      }

      /** Whether h maps the layer's plane affinely (w constant and in front of the eye). */
      function isAffine(h, minimumW) {
        return h[2] === 0 && h[5] === 0 && h[8] >= minimumW;
      }

      /** The layer rectangle [x0, y0, x1, y1] holding the rounded bounds and the contents. */
      function extent(paint) {
        let [x0, y0, x1, y1] = paint.body;
        for (const p of (paint.contents && paint.contents.pieces) || []) {
          x0 = Math.min(x0, p[4]);
          y0 = Math.min(y0, p[5]);
          x1 = Math.max(x1, p[4] + p[6]);
          y1 = Math.max(y1, p[5] + p[7]);
        }
        return [x0, y0, x1, y1];
      }

      /**
       * draw(ctx) in layer coordinates through h: within the rectangle's projected outline, the
       * rectangle cut into MESH × MESH cells, two triangles each, every triangle clipped (grown
       * by SEAM pixels, so that neighbours overlap and no antialiased seam shows the backdrop)
       * and drawn with the affine map of its three projected corners. Cells with a corner behind
       * the eye are left out.
       */
      const MESH = 16;
      const SEAM = 1;
      function meshed(ctx, h, rect, draw, env) {
        const [x0, y0, x1, y1] = rect;
        const s = env.scale;
        const outline = new Path2D();
        addPolygon(outline, projectRect(h, x0, y0, x1, y1, s, env.minimumW));
        ctx.save();
        ctx.clip(outline);
        const project = (u, v) => {
          const W = u * h[2] + v * h[5] + h[8];
          if (!(W >= env.minimumW)) return null;
          return [s * (u * h[0] + v * h[3] + h[6]) / W, s * (u * h[1] + v * h[4] + h[7]) / W];
        };
        for (let j = 0; j < MESH; j++) {
          for (let i = 0; i < MESH; i++) {
            const u = [x0 + (x1 - x0) * i / MESH, x0 + (x1 - x0) * (i + 1) / MESH];
            const v = [y0 + (y1 - y0) * j / MESH, y0 + (y1 - y0) * (j + 1) / MESH];
            const corners = [[u[0], v[0]], [u[1], v[0]], [u[1], v[1]], [u[0], v[1]]];
            const pixels = corners.map(([a, b]) => project(a, b));
            if (pixels.includes(null)) continue;
            for (const [p, q, r] of [[0, 1, 2], [0, 2, 3]]) {
              drawTriangle(ctx, [corners[p], corners[q], corners[r]],
                [pixels[p], pixels[q], pixels[r]], draw);
            }
          }
        }
        ctx.restore();
      }

      /** draw(ctx) through the affine map of layer triangle L onto pixel triangle P, clipped to P. */
      function drawTriangle(ctx, L, P, draw) {
        const [[u0, v0], [u1, v1], [u2, v2]] = L;
        const [[x0, y0], [x1, y1], [x2, y2]] = P;
        const det = (u1 - u0) * (v2 - v0) - (u2 - u0) * (v1 - v0);
        if (det === 0) return;
        const a = ((x1 - x0) * (v2 - v0) - (x2 - x0) * (v1 - v0)) / det;
        const c = ((x2 - x0) * (u1 - u0) - (x1 - x0) * (u2 - u0)) / det;
        const b = ((y1 - y0) * (v2 - v0) - (y2 - y0) * (v1 - v0)) / det;
        const d = ((y2 - y0) * (u1 - u0) - (y1 - y0) * (u2 - u0)) / det;
        const cx = (x0 + x1 + x2) / 3;
        const cy = (y0 + y1 + y2) / 3;
        const clip = new Path2D();
        addPolygon(clip, P.map(([x, y]) => {
          const r = Math.hypot(x - cx, y - cy);
          return r > 0 ? [x + SEAM * (x - cx) / r, y + SEAM * (y - cy) / r] : [x, y];
        }));
        ctx.save();
        ctx.clip(clip);
        ctx.setTransform(a, b, c, d, x0 - a * u0 - c * v0, y0 - b * u0 - d * v0);
        draw(ctx);
        ctx.restore();
      }

      /** The rounded bounds [x0, y0, x1, y1, ρ, maskedCorners] as a path (layer coordinates). */
      function bodyPath(body) {
        const [x0, y0, x1, y1, r, mask] = body;
        const [tl, tr, bl, br] = [1, 2, 4, 8].map((bit) => (mask & bit ? r : 0));
        const p = new Path2D();
        p.moveTo(x0 + tl, y0);
        p.lineTo(x1 - tr, y0);
        if (tr > 0) p.arcTo(x1, y0, x1, y0 + tr, tr);
        p.lineTo(x1, y1 - br);
        if (br > 0) p.arcTo(x1, y1, x1 - br, y1, br);
        p.lineTo(x0 + bl, y1);
        if (bl > 0) p.arcTo(x0, y1, x0, y1 - bl, bl);
        p.lineTo(x0, y0 + tl);
        if (tl > 0) p.arcTo(x0, y0, x0 + tl, y0, tl);
        p.closePath();
        return p;
      }

      /** The contents' pieces (texel rectangle → layer rectangle), clipped with masksToBounds. */
      function drawContents(ctx, contents, body, image) {
        ctx.save();
        if (contents.clip) ctx.clip(bodyPath(body));
        ctx.imageSmoothingEnabled = contents.smooth;
        ctx.imageSmoothingQuality = 'medium';
        for (const [sx, sy, sw, sh, dx, dy, dw, dh] of contents.pieces) {
          if (sw > 0 && sh > 0) ctx.drawImage(image, sx, sy, sw, sh, dx, dy, dw, dh);
        }
        ctx.restore();
      }

      /**
       * The gradient over the rounded bounds: a canvas linear, radial (the unit circle mapped to
       * the ellipse of half-axes |E − S|) or conic gradient (starting towards E) with the stops
       * over [0, 1]; the last colour for degenerate geometry.
       */
      function drawGradient(ctx, g, body) {
        const [sx, sy] = g.start;
        const [ex, ey] = g.end;
        const last = g.stops[g.stops.length - 1].slice(1);
        const rx = Math.abs(ex - sx);
        const ry = Math.abs(ey - sy);
        const path = bodyPath(body);
        ctx.save();
        ctx.clip(path);
        let style;
        if (g.type === 'axial' && (rx > 0 || ry > 0)) {
          style = ctx.createLinearGradient(sx, sy, ex, ey);
        } else if (g.type === 'radial' && rx > 0 && ry > 0) {
          ctx.transform(rx, 0, 0, ry, sx, sy);
          style = ctx.createRadialGradient(0, 0, 0, 0, 0, 1);
        } else if (g.type === 'conic') {
          const angle = rx > 0 || ry > 0 ? Math.atan2(ey - sy, ex - sx) : 0;
          style = ctx.createConicGradient(angle, sx, sy);
        }
        if (style) {
          for (const [t, ...color] of g.stops) style.addColorStop(t, css(color));
          ctx.fillStyle = style;
        } else {
          ctx.fillStyle = css(last);
        }
        const [x0, y0, x1, y1] = body;
        if (g.type === 'radial' && style) {
          ctx.fillRect((x0 - sx) / rx, (y0 - sy) / ry, (x1 - x0) / rx, (y1 - y0) / ry);
        } else {
          ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
        }
        ctx.restore();
      }

      return {
        decodeFloats, decodeFrames, prepareScene, frameTime, frameIndex, runningFrame, sameShape,
        curveValue, interactionState, interactionEnd, gestureBegins, gesturePercent, thresholdDecision,
        gestureRelease, beginDrag, moveDrag, endDrag, projectRect, projectPolygon, snap, drawFrame,
      };
    })();
    globalThis.SeguePreview = SeguePreview;
    """#

  /// The page's controls, drawing loop and seek hook.
  static let ui = #"""
    'use strict';
    // The page: playback, scrubbing, the drag that drives the interaction, and the seek hook
    // (?t=T1,T2&op=push,pop&timeline=animation|events|drag&scale=S&chrome=0).
    (() => {
      const P = globalThis.SeguePreview;
      const root = document.documentElement;
      let data;
      let scenes;
      try {
        data = JSON.parse(document.getElementById('segue-data').textContent);
        scenes = data.scenes.map(P.prepareScene);
      } catch (error) {
        fail('the embedded data cannot be read: ' + error.message);
        return;
      }
      const curve = P.decodeFloats(data.completion.table, 8);
      const [W, H] = data.container;
      const SPEEDS = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];
      const HOLD = 0.5;
      const scratchCanvases = {};
      // The layers' contents images, each decoded once; drawing starts when all have loaded.
      const images = (data.images || []).map((uri) => {
        const image = new Image();
        image.src = uri;
        return image;
      });

      /**
       * A 2D context that composites in half floats where the browser offers it (fewer rounding
       * steps than 8 bits per channel: closer to the renderer's Float compositing).
       */
      function context(canvas) {
        return canvas.getContext('2d', { colorType: 'float16' });
      }

      function scratch(name, w, h) {
        let c = scratchCanvases[name];
        if (!c) {
          c = scratchCanvases[name] = document.createElement('canvas');
          context(c);
        }
        if (c.width !== w || c.height !== h) {
          c.width = w;
          c.height = h;
        }
        return c;
      }

      function env(sceneIndex, scale) {
        return {
          snaps: scenes[sceneIndex].snapshots, scale,
          minimumW: data.minimumW, scratch, images,
        };
      }

      function fail(message) {
        root.dataset.error = message;
        document.title = 'segue preview: error: ' + message;
        const box = document.getElementById('error');
        if (box) {
          box.textContent = message;
          box.hidden = false;
        }
      }

      // MARK: Timelines

      function interactionOf(tl) {
        return {
          duration: tl.duration, completionSpeed: tl.completionSpeed, curve,
          wantsInteractiveStart: tl.wantsInteractiveStart, events: tl.events,
        };
      }

      function animationTimeline(i) {
        return { kind: 'animation', scene: i, end: scenes[i].duration };
      }

      function scriptTimeline() {
        const tl = interactionOf(data.interaction);
        return { kind: 'events', scene: data.interaction.scene, tl, end: P.interactionEnd(tl) };
      }

      /** An empty history for a drag on scene i (it grows as the drag is recorded). */
      function dragTimeline(i, completionSpeed) {
        const tl = {
          duration: scenes[i].duration, completionSpeed, curve, wantsInteractiveStart: true,
          events: [],
        };
        return { kind: 'drag', scene: i, tl, end: Infinity };
      }

      /**
       * The seek hook's drag: `T:X,Y;T:X,Y;…` (seconds from the press, container points), the first
       * sample the press, the last the release (`;cancel` after it: the recognizer cancelled),
       * recorded exactly as a drag on the stage.
       */
      function replayDrag(i, text, rule, completionSpeed) {
        const parts = text.split(';');
        const cancelled = parts[parts.length - 1] === 'cancel';
        if (cancelled) parts.pop();
        const samples = parts.map((part) => {
          const m = /^([^:]+):([^,]+),(.+)$/.exec(part);
          const v = m ? [m[1], m[2], m[3]].map(Number) : [NaN];
          if (!v.every(Number.isFinite)) throw new Error(`drag: '${part}' is not T:X,Y`);
          return { time: v[0], location: { x: v[1], y: v[2] } };
        });
        if (samples.length < 2) throw new Error('drag: give a press and a release at least');
        const timeline = dragTimeline(i, completionSpeed);
        const drag = P.beginDrag(data.gesture, rule, timeline.tl, samples[0].location,
          samples[0].time);
        if (!drag) throw new Error('drag: the gesture starts nothing at its first sample');
        for (const s of samples.slice(1, -1)) P.moveDrag(drag, s.location, s.time);
        const last = samples[samples.length - 1];
        P.endDrag(drag, last.location, last.time, cancelled);
        timeline.end = P.interactionEnd(timeline.tl);
        return timeline;
      }

      /** What the timeline shows at wall time t: the frame and the readouts. */
      function stateAt(timeline, t) {
        const i = timeline.scene;
        const scene = scenes[i];
        const running = (a) => P.runningFrame(scene, a, scene.snapshots, data.minimumW);
        if (timeline.kind === 'animation') {
          if (t >= scene.duration) {
            return { frame: scene.finished, position: 1, phase: 'completed', finished: true,
              a: scene.duration };
          }
          return { frame: running(t), position: t / scene.duration, phase: 'running',
            finished: null, a: t };
        }
        const s = P.interactionState(timeline.tl, t);
        if (s.phase === 'completed') {
          return { frame: s.finished ? scene.finished : scene.cancelled, position: s.position,
            phase: s.phase, finished: s.finished, a: s.position * scene.duration };
        }
        const a = s.position * scene.duration;
        return { frame: running(a), position: s.position, phase: s.phase, finished: null, a };
      }

      // MARK: The seek hook

      const params = new URLSearchParams(location.search);
      const loaded = images.map((image) => (image.complete ? Promise.resolve()
        : new Promise((resolve) => {
          image.addEventListener('load', resolve);
          image.addEventListener('error', resolve);
        })));
      Promise.all(loaded).then(() => {
        if (params.has('t')) {
          try {
            seek();
          } catch (error) {
            fail(error.message);
          }
        } else {
          start({});
        }
      });

      /** Renders the requested moments: in the page (one time), or alone (bare). */
      function seek() {
        const times = params.get('t').split(',').map((text) => {
          const t = Number(text);
          if (text.trim() === '' || !Number.isFinite(t) || t < 0) {
            throw new Error(`t: '${text}' is not a finite time ≥ 0`);
          }
          return t;
        });
        const names = (params.get('op') || scenes[data.initialScene].name).split(',');
        const indices = names.map((name) => {
          const i = scenes.findIndex((s) => s.name === name);
          if (i < 0) {
            throw new Error(`op: '${name}' is not one of ${scenes.map((s) => s.name).join(', ')}`);
          }
          return i;
        });
        const kind = params.get('timeline') || (params.has('drag') ? 'drag' : 'animation');
        if (!['animation', 'events', 'drag'].includes(kind)) {
          throw new Error(`timeline: '${kind}' is not animation, events or drag`);
        }
        const rule = params.get('rule') || 'threshold';
        if (rule !== 'threshold' && rule !== 'velocity') {
          throw new Error(`rule: '${rule}' is not threshold or velocity`);
        }
        const completionSpeed = Number(params.get('completionSpeed')
          || String(data.completion.completionSpeed));
        if (!(completionSpeed > 0) || !Number.isFinite(completionSpeed)) {
          throw new Error('completionSpeed: must be > 0');
        }
        if (kind === 'drag' && !params.has('drag')) throw new Error('timeline: drag needs drag=');
        if (kind === 'events') {
          if (!data.interaction) throw new Error('timeline: this page has no events');
          for (const i of indices) {
            if (i !== data.interaction.scene) {
              throw new Error(`timeline: the events belong to ${scenes[data.interaction.scene].name}`);
            }
          }
        }
        const scale = Number(params.get('scale') || '1');
        if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('scale: must be > 0');
        const timelineFor = (i) => {
          if (kind === 'events') return scriptTimeline();
          if (kind === 'drag') return replayDrag(i, params.get('drag'), rule, completionSpeed);
          return animationTimeline(i);
        };
        const bare = params.get('bare') === '1' || params.get('chrome') === '0' || times.length > 1
          || indices.length > 1;
        if (!bare) {
          const timeline = timelineFor(indices[0]);
          start({ scene: indices[0], timeline, t: times[0] });
          ready(`t=${times[0]}`);
          return;
        }
        // Bare: a grid of frames (rows: operations, columns: times), each exactly
        // round(scale·W) × round(scale·H) pixels, from the top-left corner of the page.
        document.getElementById('app').remove();
        document.body.className = 'bare';
        const dpr = window.devicePixelRatio || 1;
        const w = Math.round(scale * W);
        const h = Math.round(scale * H);
        const grid = document.createElement('div');
        grid.className = 'grid';
        grid.style.gridTemplateColumns = `repeat(${times.length}, ${w}px)`;
        for (const i of indices) {
          for (const t of times) {
            const canvas = document.createElement('canvas');
            canvas.width = Math.round(w * dpr);
            canvas.height = Math.round(h * dpr);
            canvas.style.width = `${w}px`;
            canvas.style.height = `${h}px`;
            const state = stateAt(timelineFor(i), t);
            canvas.setAttribute('role', 'img');
            canvas.setAttribute('aria-label', `${scenes[i].name} at ${t} s: ${state.phase}`);
            P.drawFrame(context(canvas), state.frame, env(i, scale * dpr));
            grid.appendChild(canvas);
          }
        }
        document.body.appendChild(grid);
        ready(`${indices.length}×${times.length} frames`);
      }

      function ready(what) {
        root.dataset.ready = what;
        document.title = 'segue preview: ready: ' + what;
      }

      // MARK: The interactive page

      function start(options) {
        const $ = (id) => document.getElementById(id);
        const canvas = $('stage');
        const ctx = context(canvas);
        const ui = {
          scene: options.scene ?? data.initialScene,
          timeline: null, t: options.t ?? 0, playing: false, loop: true, speed: 4,
          drag: null, dragPointer: null, recorded: {}, lastPhase: null,
          base: { t: 0, real: 0 }, completionSpeed: data.completion.completionSpeed,
          rule: 'threshold', scale: 1,
        };
        ui.timeline = options.timeline
          ?? (data.interaction && data.interaction.scene === ui.scene
            ? scriptTimeline() : animationTimeline(ui.scene));
        if (ui.timeline.kind === 'drag') ui.recorded[ui.scene] = ui.timeline;

        $('title').textContent = `segue preview: ${data.title}`;
        document.title = `segue preview: ${data.title}`;
        $('subtitle').textContent = data.subtitle;

        // Operation radios.
        const ops = $('ops');
        scenes.forEach((scene, i) => {
          const label = document.createElement('label');
          const input = document.createElement('input');
          input.type = 'radio';
          input.name = 'op';
          input.value = String(i);
          input.addEventListener('change', () => chooseScene(i));
          label.append(input, ' ' + scene.name);
          ops.appendChild(label);
        });
        if (scenes.length < 2) ops.hidden = true;

        const timelineRadios = document.querySelectorAll('input[name=timeline]');
        for (const input of timelineRadios) {
          input.addEventListener('change', () => chooseTimeline(input.value));
        }

        // Speed.
        const speed = $('speed');
        speed.max = String(SPEEDS.length - 1);
        speed.addEventListener('input', () => setSpeed(Number(speed.value)));

        $('play').addEventListener('click', togglePlay);
        $('reset').addEventListener('click', reset);
        $('loop').addEventListener('click', () => setLoop(!ui.loop));
        const scrub = $('scrub');
        scrub.addEventListener('input', () => {
          pause();
          ui.t = Number(scrub.value);
          draw();
        });
        const speedInput = $('completion-speed');
        speedInput.value = String(ui.completionSpeed);
        speedInput.addEventListener('change', () => {
          const v = Number(speedInput.value);
          if (Number.isFinite(v) && v > 0) {
            ui.completionSpeed = v;
            speedInput.removeAttribute('aria-invalid');
          } else {
            speedInput.setAttribute('aria-invalid', 'true');
            announce('completionSpeed must be a number greater than 0');
          }
        });
        $('rule').addEventListener('change', (e) => { ui.rule = e.target.value; });
        $('curve').textContent = data.completion.curve;
        $('gesture').textContent = describeGesture(data.gesture);

        canvas.addEventListener('pointerdown', pointerDown);
        canvas.addEventListener('pointermove', pointerMove);
        canvas.addEventListener('pointerup', (e) => pointerUp(e, false));
        canvas.addEventListener('pointercancel', (e) => pointerUp(e, true));
        document.addEventListener('keydown', key);
        window.addEventListener('resize', layout);

        setSpeed(ui.speed);
        setLoop(true);
        syncControls();
        layout();
        requestAnimationFrame(tick);

        function describeGesture(g) {
          const input = g.input;
          const cap = g.cap === 1 ? '1' : String(g.cap);
          let text = `Drag on the stage: percent = clamp(${input} / ${g.span}, 0, ${cap})`;
          if (g.edgeLimit !== null) text += `; begins only when the touch starts at x ≤ ${g.edgeLimit}`;
          text += `; on release finish if percent > ${g.threshold}, else cancel`;
          text += g.cancelsCancelledGestures
            ? ' (a cancelled gesture cancels)' : ' (a cancelled gesture decides by percent too)';
          text += `; velocity rule: |velocity.x| ≥ ${g.containerWidth} pt/s decides by its sign.`;
          text += g.presetGesture ? ` The ${data.title} preset's own gesture.`
            : ' This preset has no gesture of its own: the fade-slide edge swipe\'s rules.';
          return text;
        }

        // MARK: Clock

        function now() { return performance.now(); }
        function speedValue() { return SPEEDS[ui.speed]; }
        /** The page time at real time `real` (ms) while playing. */
        function clock(real) { return ui.base.t + (real - ui.base.real) / 1000 * speedValue(); }
        function rebase() { ui.base = { t: ui.t, real: now() }; }

        function tick() {
          if (ui.playing) {
            ui.t = clock(now());
            const end = ui.timeline.end;
            if (!ui.drag && ui.t >= end) {
              if (ui.loop && ui.t >= end + HOLD) {
                ui.t = 0;
                rebase();
              } else if (!ui.loop) {
                ui.t = end;
                ui.playing = false;
                syncControls();
              }
            }
          }
          draw();
          requestAnimationFrame(tick);
        }

        function play() {
          if (ui.t >= ui.timeline.end) ui.t = 0;
          ui.playing = true;
          rebase();
          syncControls();
        }

        function pause() {
          if (ui.drag) return;
          ui.playing = false;
          syncControls();
        }

        function togglePlay() {
          if (ui.playing) pause();
          else play();
        }

        function setSpeed(index) {
          if (ui.playing) ui.t = clock(now());
          ui.speed = Math.min(Math.max(index, 0), SPEEDS.length - 1);
          rebase();
          speed.value = String(ui.speed);
          const text = `${SPEEDS[ui.speed]}×`;
          speed.setAttribute('aria-valuetext', text);
          $('speed-out').textContent = text;
        }

        function setLoop(on) {
          ui.loop = on;
          $('loop').setAttribute('aria-pressed', String(on));
        }

        function reset() {
          ui.drag = null;
          ui.playing = false;
          ui.t = 0;
          ui.timeline = data.interaction && data.interaction.scene === ui.scene
            ? scriptTimeline() : animationTimeline(ui.scene);
          syncControls();
          announce('reset to the start');
        }

        function chooseScene(i) {
          ui.scene = i;
          ui.drag = null;
          ui.t = 0;
          ui.timeline = animationTimeline(i);
          rebase();
          syncControls();
        }

        function chooseTimeline(kind) {
          ui.drag = null;
          if (kind === 'events' && data.interaction) {
            ui.timeline = scriptTimeline();
            ui.scene = ui.timeline.scene;
          } else if (kind === 'drag' && ui.recorded[ui.scene]) {
            ui.timeline = ui.recorded[ui.scene];
          } else {
            ui.timeline = animationTimeline(ui.scene);
          }
          ui.t = Math.min(ui.t, ui.timeline.end);
          rebase();
          syncControls();
        }

        function step(frames) {
          pause();
          if (ui.drag) return;
          const k = Math.round(ui.t * data.fps) + frames;
          ui.t = Math.min(Math.max(k / data.fps, 0), ui.timeline.end);
          draw();
        }

        function seekTo(t) {
          pause();
          ui.t = Math.min(Math.max(t, 0), ui.timeline.end);
          rebase();
          draw();
        }

        function key(e) {
          if (e.altKey || e.ctrlKey || e.metaKey) return;
          const target = e.target;
          const tag = target.tagName;
          const type = target.type;
          if (tag === 'SELECT' || tag === 'TEXTAREA') return;
          if (tag === 'INPUT' && (type === 'number' || type === 'text')) return;
          const control = tag === 'BUTTON' || type === 'checkbox' || type === 'radio';
          switch (e.key) {
            case ' ':
              if (control) return;
              togglePlay();
              break;
            case 'ArrowLeft':
            case 'ArrowRight':
              if (type === 'radio' || target.id === 'speed') return;
              step((e.key === 'ArrowLeft' ? -1 : 1) * (e.shiftKey ? 10 : 1));
              break;
            case 'Home':
              if (target.id === 'speed') return;
              seekTo(0);
              break;
            case 'End':
              if (target.id === 'speed') return;
              seekTo(ui.timeline.end);
              break;
            case 'l':
            case 'L':
              setLoop(!ui.loop);
              break;
            case 'r':
            case 'R':
              reset();
              break;
            case '[':
              setSpeed(ui.speed - 1);
              break;
            case ']':
              setSpeed(ui.speed + 1);
              break;
            default:
              return;
          }
          e.preventDefault();
        }

        // MARK: Drag

        function pointAt(e) {
          const r = canvas.getBoundingClientRect();
          return { x: (e.clientX - r.left) / r.width * W, y: (e.clientY - r.top) / r.height * H };
        }

        function pointerDown(e) {
          if (ui.drag || e.button !== 0) return;
          const location = pointAt(e);
          const timeline = dragTimeline(ui.scene, ui.completionSpeed);
          const drag = P.beginDrag(data.gesture, ui.rule, timeline.tl, location, 0);
          if (!drag) {
            announce(`This gesture starts nothing: it must begin at x ≤ ${data.gesture.edgeLimit} `
              + `(it began at x = ${location.x.toFixed(1)}).`);
            return;
          }
          canvas.setPointerCapture(e.pointerId);
          ui.timeline = timeline;
          ui.drag = drag;
          ui.dragPointer = e.pointerId;
          ui.t = 0;
          ui.playing = true;
          ui.base = { t: 0, real: e.timeStamp };
          syncControls();
          announce('interacting');
        }

        function pointerMove(e) {
          if (!ui.drag || e.pointerId !== ui.dragPointer) return;
          P.moveDrag(ui.drag, pointAt(e), clock(e.timeStamp));
        }

        function pointerUp(e, cancelled) {
          if (!ui.drag || e.pointerId !== ui.dragPointer) return;
          const decision = P.endDrag(ui.drag, pointAt(e), clock(e.timeStamp), cancelled);
          const timeline = ui.timeline;
          timeline.end = P.interactionEnd(timeline.tl);
          ui.recorded[ui.scene] = timeline;
          ui.drag = null;
          syncControls();
          announce(`${cancelled ? 'gesture cancelled' : 'released'}: ${decision}`);
        }

        // MARK: Drawing and readouts

        function layout() {
          // Beside the controls on a wide window (half of it), above them on a narrow one.
          const wide = window.innerWidth > 700;
          const room = Math.max(wide ? window.innerWidth / 2 - 24 : window.innerWidth - 32, 120);
          const height = Math.max(window.innerHeight - 32, 160);
          ui.scale = Math.min(1, room / W, height / H);
          const dpr = window.devicePixelRatio || 1;
          canvas.style.width = `${Math.round(ui.scale * W)}px`;
          canvas.style.height = `${Math.round(ui.scale * H)}px`;
          canvas.width = Math.max(1, Math.round(ui.scale * W * dpr));
          canvas.height = Math.max(1, Math.round(ui.scale * H * dpr));
          draw();
        }

        function syncControls() {
          $('play').textContent = ui.playing ? 'Pause' : 'Play';
          $('play').setAttribute('aria-pressed', String(ui.playing));
          for (const input of ops.querySelectorAll('input')) {
            input.checked = Number(input.value) === ui.scene;
            input.disabled = !!ui.drag;
          }
          for (const input of timelineRadios) {
            const kind = input.value;
            input.checked = ui.timeline.kind === kind;
            input.disabled = !!ui.drag
              || (kind === 'events' && !data.interaction)
              || (kind === 'drag' && !ui.recorded[ui.scene] && ui.timeline.kind !== 'drag');
          }
          $('events-choice').hidden = !data.interaction;
          scrub.disabled = !!ui.drag;
          draw();
        }

        function draw() {
          const state = stateAt(ui.timeline, ui.t);
          const dpr = window.devicePixelRatio || 1;
          P.drawFrame(ctx, state.frame, env(ui.scene, ui.scale * dpr));
          const scene = scenes[ui.scene];
          const end = ui.timeline.end === Infinity ? Math.max(ui.t, scene.duration) : ui.timeline.end;
          scrub.max = String(end);
          scrub.value = String(ui.t);
          const time = `${ui.t.toFixed(3)} s of ${end.toFixed(3)} s`;
          scrub.setAttribute('aria-valuetext', time);
          $('time').textContent = time;
          $('progress').textContent = `${(100 * state.position).toFixed(1)} %`;
          $('animation-time').textContent = `${state.a.toFixed(3)} s of ${scene.duration} s`;
          let phase = state.phase;
          if (phase === 'completed') phase += state.finished ? ' (finished)' : ' (cancelled)';
          $('phase').textContent = phase;
          $('frame').textContent = frameText(scene, state);
          canvas.setAttribute('aria-label',
            `${data.title} ${scene.name}: ${phase}, progress ${(100 * state.position).toFixed(0)} %`);
          if (phase !== ui.lastPhase) {
            if (ui.lastPhase !== null && ui.timeline.kind !== 'animation') announce(phase);
            ui.lastPhase = phase;
          }
        }

        function frameText(scene, state) {
          if (state.phase === 'completed') {
            return state.finished ? 'the finished state' : 'the cancelled state';
          }
          const k = P.frameIndex(scene, state.a);
          const exact = P.frameTime(scene, k) === state.a;
          const n = scene.running.length;
          return `sample ${k} of ${n - 1}${exact ? '' : ' (interpolated towards the next)'}`;
        }
      }

      function announce(text) {
        const box = document.getElementById('announce');
        if (box) box.textContent = text;
      }
    })();
    """#

  /// The page around `data` (the JSON text of the data): `<` in the JSON is written `\u003c`,
  /// so no text in it can close the script element.
  static func html(data: String, generator: String) -> String {
    let safe = data.replacingOccurrences(of: "<", with: "\\u003c")
    return
      shell
      .replacingOccurrences(of: "@@GENERATOR@@", with: generator)
      .replacingOccurrences(of: "@@CORE@@", with: core)
      .replacingOccurrences(of: "@@UI@@", with: ui)
      .replacingOccurrences(of: "@@DATA@@", with: safe)
  }
}
