// The archive tree: laid out here (leaves left to right in depth-first order, a parent over
// its children), drawn as SVG, zoomed with the wheel and panned by dragging. Every label is
// set as text, never as markup.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const DX = 26, DY = 64, R = 8, LABELS_UP_TO = 600;
const RISING = '\u25B2';  // a higher cheating rate than its parent's

function colour(status, resolved, n) {
  if (status !== 'valid') return '#555555';
  if (!n) return '#cccccc';
  const r = resolved / n;
  const hex = v => Math.floor(v).toString(16).padStart(2, '0');
  return '#' + hex(220 * (1 - r) + 30) + hex(180 * r + 50) + '60';
}

function layout(nodes) {
  // nodes: [{id, parent, ...}] sorted by id; returns id -> [x, y] (no recursion: deep trees are fine)
  const kids = new Map(), pos = new Map();
  const byId = new Map(nodes.map(n => [n.id, n]));
  const roots = [];
  for (const n of nodes) {
    if (n.parent === null || !byId.has(n.parent)) roots.push(n.id);
    else { if (!kids.has(n.parent)) kids.set(n.parent, []); kids.get(n.parent).push(n.id); }
  }
  let nextX = 0;
  for (const root of roots) {
    const stack = [[root, 0, false]];
    while (stack.length) {
      const [id, depth, expanded] = stack.pop();
      const children = kids.get(id) || [];
      if (!children.length) { pos.set(id, [nextX++ * DX, depth * DY]); continue; }
      if (!expanded) {
        stack.push([id, depth, true]);
        for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth + 1, false]);
      } else {
        const first = pos.get(children[0])[0], last = pos.get(children[children.length - 1])[0];
        pos.set(id, [(first + last) / 2, depth * DY]);
      }
    }
  }
  return pos;
}

class TreeView {
  constructor(svg, onPick) {
    this.svg = svg;
    this.view = svg.querySelector('#viewport');
    this.onPick = onPick;
    this.k = 1; this.tx = 20; this.ty = 20;
    this.userMoved = false;  // fitted to the view on every redraw until the user zooms or pans
    this.selected = null;
    this.filters = new Set();
    this.data = null;
    svg.addEventListener('wheel', e => this.zoom(e), { passive: false });
    svg.addEventListener('pointerdown', e => this.dragStart(e));
    svg.addEventListener('mouseover', e => {
      const id = e.target.dataset ? e.target.dataset.id : undefined;
      if (id !== undefined && this.onHover) this.onHover(this.describe(Number(id)));
    });
    svg.addEventListener('click', e => {
      const id = e.target.dataset ? e.target.dataset.id : undefined;
      if (id !== undefined && !this.moved) this.onPick(Number(id));
    });
  }

  apply() { this.view.setAttribute('transform', `translate(${this.tx},${this.ty}) scale(${this.k})`); }

  zoom(e) {
    e.preventDefault();
    const box = this.svg.getBoundingClientRect();
    const mx = e.clientX - box.left, my = e.clientY - box.top;
    const f = Math.exp(-e.deltaY * 0.0015);
    const k = Math.min(8, Math.max(0.01, this.k * f));
    this.tx = mx - (mx - this.tx) * (k / this.k);
    this.ty = my - (my - this.ty) * (k / this.k);
    this.k = k;
    this.userMoved = true;
    this.apply();
  }

  dragStart(e) {
    const x0 = e.clientX, y0 = e.clientY, tx0 = this.tx, ty0 = this.ty;
    this.moved = false;
    const move = m => {
      if (Math.abs(m.clientX - x0) + Math.abs(m.clientY - y0) > 3) this.moved = this.userMoved = true;
      this.tx = tx0 + m.clientX - x0; this.ty = ty0 + m.clientY - y0; this.apply();
    };
    const up = () => { window.removeEventListener('pointermove', move); window.removeEventListener('pointerup', up); };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }

  fit() {
    if (!this.pos || !this.pos.size) return;
    const xs = [...this.pos.values()].map(p => p[0]), ys = [...this.pos.values()].map(p => p[1]);
    const w = Math.max(...xs) + 2 * R, h = Math.max(...ys) + 2 * R;
    const box = this.svg.getBoundingClientRect();
    this.k = Math.min(2, (box.width - 40) / Math.max(w, 1), (box.height - 40) / Math.max(h, 1));
    this.tx = 20 + R * this.k; this.ty = 20 + R * this.k;
    this.apply();
  }

  update(data) {
    // data: the /api/tree answer; redrawn whole, keeping the zoom and pan
    const f = data.fields;
    const nodes = data.nodes.map(row => Object.fromEntries(f.map((k, i) => [k, row[i]])));
    this.data = data; this.nodes = nodes;
    this.byId = new Map(nodes.map(n => [n.id, n]));
    this.pos = layout(nodes);
    const lineage = new Set(data.lineage);
    const edges = [], best = [], second = [];
    for (const n of nodes) {
      const p = this.pos.get(n.id);
      if (n.parent !== null && this.pos.has(n.parent)) {
        const q = this.pos.get(n.parent);
        (lineage.has(n.id) ? best : edges).push(`M${q[0]},${q[1]}L${p[0]},${p[1]}`);
      }
      if (n.second_parent !== null && this.pos.has(n.second_parent)) {
        const q = this.pos.get(n.second_parent);
        second.push(`M${q[0]},${q[1]}L${p[0]},${p[1]}`);
      }
    }
    const frag = document.createDocumentFragment();
    for (const [d, cls] of [[edges, 'edges'], [second, 'edges second'], [best, 'edges lineage']]) {
      const path = document.createElementNS(SVG_NS, 'path');
      path.setAttribute('class', cls);
      path.setAttribute('d', d.join(''));
      frag.appendChild(path);
    }
    for (const n of nodes) {
      const [x, y] = this.pos.get(n.id);
      if (n.cheated) {  // some gradings judged tampered or gamed: a ring, thicker when above its parent's rate
        const ring = document.createElementNS(SVG_NS, 'circle');
        ring.setAttribute('cx', x); ring.setAttribute('cy', y); ring.setAttribute('r', R + 4);
        ring.setAttribute('class', n.rising ? 'cheat rising' : 'cheat');
        frag.appendChild(ring);
      }
      const c = document.createElementNS(SVG_NS, 'circle');
      c.setAttribute('cx', x); c.setAttribute('cy', y); c.setAttribute('r', R);
      c.setAttribute('fill', colour(n.status, n.resolved, n.n));
      c.setAttribute('class', this.classes(n, lineage));
      c.dataset.id = n.id;
      frag.appendChild(c);
      if (nodes.length <= LABELS_UP_TO) {
        const t = document.createElementNS(SVG_NS, 'text');
        t.setAttribute('x', x); t.setAttribute('y', y - R - 3);
        t.textContent = n.rising ? `${n.id} ${RISING}` : String(n.id);
        frag.appendChild(t);
      }
    }
    this.view.replaceChildren(frag);
    if (!this.userMoved) this.fit(); else this.apply();
  }

  classes(n, lineage) {
    // the node's classes: best lineage, selected, and under a filter whether it matches
    const cls = ['node'];
    if (lineage.has(n.id)) cls.push('best');
    if (n.id === this.selected) cls.push('selected');
    if (this.filters.size) {
      const hit = [...this.filters].some(f => n.flags.includes(f) || (f === 'invalid' && n.status === 'invalid') ||
        (f === 'cheating' && n.cheated > 0) || (f === 'rising' && n.rising));
      cls.push(hit ? 'hit' : 'dim');
    }
    return cls.join(' ');
  }

  describe(id) {
    const n = this.byId && this.byId.get(id);
    if (!n) return '';
    return `node ${n.id}: ${n.status}, ${n.n ? n.resolved + '/' + n.n + ' resolved' : 'not evaluated'}` +
      (n.flags.length ? ' (' + n.flags.join(', ') + ')' : '') +
      (n.gradings ? `, cheating ${n.cheated}/${n.gradings} gradings` + (n.rising ? ` ${RISING} higher than its parent's` : '') : '');
  }

  restyle() {
    if (!this.nodes) return;
    const lineage = new Set(this.data.lineage);
    for (const c of this.view.querySelectorAll('circle.node')) c.setAttribute('class', this.classes(this.byId.get(Number(c.dataset.id)), lineage));
  }

  select(id) {
    const before = this.selected;
    this.selected = id;
    if (!this.nodes) return;
    const lineage = new Set(this.data.lineage);
    for (const x of [before, id]) {
      const c = this.view.querySelector(`circle.node[data-id="${Number(x)}"]`);
      if (c) c.setAttribute('class', this.classes(this.byId.get(Number(x)), lineage));
    }
  }
  setFilters(values) { this.filters = new Set(values); this.restyle(); }
}

window.TreeView = TreeView;
