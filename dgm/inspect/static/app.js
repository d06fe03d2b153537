// dgm serve's page: polls the run, keeps the overview and the tree current, and shows one
// thing at a time on the right (a node, a trajectory, a comparison), chosen by the URL's
// hash. Everything an agent wrote is put in the page with textContent, never as markup.
'use strict';

const POLL_MS = 2000, FOLD = 1500;
const $ = sel => document.querySelector(sel);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k === 'onclick') e.addEventListener('click', v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function link(text, hash) { return el('a', { href: '#' + hash }, text); }

async function get(path) {
  const r = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

function score(s) {
  return s.n ? `${s.resolved}/${s.n} [${s.interval[0].toFixed(2)}-${s.interval[1].toFixed(2)}]` : '-';
}

function folded(text, cls) {
  text = String(text ?? '');
  if (text.length <= FOLD) return el('pre', { class: cls || '' }, text);
  return el('details', {}, el('summary', {}, `${text.slice(0, 200).replace(/\s+/g, ' ')}… (${text.length} characters)`),
    el('pre', { class: cls || '' }, text));
}

function diffView(text) {
  if (!text) return el('p', { class: 'empty' }, '(no difference)');
  const pre = el('pre', { class: 'diff' });
  for (const line of text.split('\n')) {
    const cls = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : '';
    pre.appendChild(el('span', { class: cls }, line + '\n'));
  }
  return pre;
}

function table(head, rows) {
  return el('table', {}, el('tr', {}, head.map(h => el('th', {}, h))), rows);
}

function messagesView(messages) {
  if (!messages.length) return el('p', { class: 'empty' }, '(no trajectory recorded)');
  return messages.map((m, i) => {
    const role = String(m.role ?? (m.raw !== undefined ? 'unparsed line' : 'message'));
    const body = [];
    if (m.raw !== undefined) body.push(folded(m.raw));
    if (m.content !== undefined && m.content !== null)
      body.push(folded(typeof m.content === 'string' ? m.content : JSON.stringify(m.content, null, 2)));
    if (m.tool_calls) body.push(el('div', {}, 'tool calls:'), folded(JSON.stringify(m.tool_calls, null, 2)));
    const rest = Object.fromEntries(Object.entries(m).filter(([k]) => !['role', 'content', 'tool_calls', 'raw'].includes(k)));
    const meta = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
    return el('div', { class: `msg ${role.replace(/[^a-z]/g, '')}` }, el('span', { class: 'role' }, `${i + 1}. ${role}`),
      el('span', { class: 'meta' }, meta), body);
  });
}

function duration(s) {
  if (s === null || s === undefined) return '?';
  s = Math.max(0, Math.floor(s));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, '0')}m`;
}

// The running jobs (polled with the run): each one's age and the calls recorded for it so
// far; a job whose agent runs now links to its trajectory, followed as it is written.
function runningView(jobs) {
  if (!jobs.length) return el('p', { class: 'empty' }, 'no job is running');
  return el('ul', { class: 'running' }, jobs.map(j => el('li', {},
    j.live ? link(`job ${j.job}`, `job=${j.job}`) : `job ${j.job}`,
    ` ${j.kind} ${j.what} · ${duration(j.age_s)} · ${j.calls} calls recorded, ${j.tokens} tokens`,
    j.heartbeat_s > 60 ? el('span', { class: 'error' }, ` · no heartbeat for ${duration(j.heartbeat_s)}`) : '')));
}

const views = {
  async job(id) {
    const j = await get(`/api/job/${encodeURIComponent(id)}/trajectory`);
    const about = j.following
      ? `following its agent's trajectory as it is written: the last ${j.messages.length} lines` +
        (j.lines_not_shown || j.cut ? ` (earlier ones not shown; ${j.bytes} bytes in all)` : '')
      : `no agent of this job is running now (the job is ${j.state}); a finished job's trajectory is on its node's page`;
    return { body: [el('h2', {}, `job ${j.job}: ${j.kind} ${j.what}`), el('p', {}, about),
      j.following ? messagesView(j.messages) : []] };
  },

  async node(id) {
    const n = await get(`/api/node/${id}`);
    const other = el('input', { class: 'small', type: 'number', min: '1', placeholder: 'node' });
    const go = kind => () => { if (other.value) location.hash = `${kind}=${n.id},${other.value}`; };
    const tasks = n.tasks.map(t => el('tr', {},
      el('td', {}, t.label), el('td', {}, t.task), el('td', { class: t.resolved ? 'ok' : 'bad' }, score(t)),
      el('td', {}, t.evaluations.map(e => [link(`#${e.attempt}${e.resolved ? ' ✓' : ' ✗'}`, `eval=${e.id}`), ' ']))));
    const o = n.origin;
    return { node: n.id, body: [
      el('h2', {}, `node ${n.id} `, el('small', {}, n.status + (n.reason ? ': ' : ''), n.reason || '')),
      el('p', {}, 'parent: ', n.parent === null ? '-' : link(String(n.parent), `node=${n.parent}`),
        n.second_parent === null ? '' : [' · second parent (recombined): ', link(String(n.second_parent), `node=${n.second_parent}`)],
        ' · ', n.expansion_trajectory ? link('the meta agent\'s trajectory that made it', `expansion=${n.id}`) : 'no expansion trajectory'),
      el('p', {}, 'diff to node ', other, ' ', el('button', { type: 'button', onclick: go('diff') }, 'diff'),
        ' ', el('button', { type: 'button', onclick: go('compare') }, 'compare')),
      el('h3', {}, 'Scores'),
      n.scores.length ? table(['benchmark', 'resolved [95% interval]'], n.scores.map(s => el('tr', {}, el('td', {}, s.label), el('td', {}, score(s)))))
        : el('p', { class: 'empty' }, 'not evaluated yet'),
      el('h3', {}, 'Integrity'),
      el('p', { class: n.cheating.cheated ? 'error' : '' }, n.cheating.gradings ? n.cheating.text : 'no gradings yet',
        n.cheating.parent === null ? '' : `; its parent's: ${n.cheating.parent}`,
        n.cheating.rising ? ' \u25B2 higher than its parent\'s' : ''),
      n.flags.length ? [el('h3', {}, 'Flags'), n.flags.map(f => el('pre', { class: 'error' }, `${f.kind}: ${JSON.stringify(f.data)}`))] : [],
      el('h3', {}, 'Per task (click an attempt for its trajectory and grading log)'),
      tasks.length ? table(['benchmark', 'task', 'resolved', 'attempts'], tasks) : el('p', { class: 'empty' }, '-'),
      el('h3', {}, 'Diagnosis (the meta agent\'s, from the expansion that made it)'),
      ['summary', 'proposal', 'focus'].map(k => el('div', {}, el('strong', {}, k + ': '), String(n.diagnosis[k] || '-'))),
      n.citations.length ? el('pre', {}, n.citations.join('\n')) : [],
      el('h3', {}, `Diff to its parent${n.parent === null ? ' (none: the seed)' : ''}`), diffView(n.diff),
      el('h3', {}, 'Memory notes'),
      n.memory.length ? n.memory.map(m => [el('div', {}, el('strong', {}, m.path)), folded(m.text)]) : el('p', { class: 'empty' }, 'none in its code'),
      n.memory_not_shown ? el('p', { class: 'empty' }, `${n.memory_not_shown} more memory files not shown`) : [],
      el('h3', {}, 'Check'),
      o.check ? [el('div', {}, `exit ${o.check.exit}`), folded(o.check.output || '(no output)')] : el('p', { class: 'empty' }, 'no check output recorded'),
      el('h3', {}, 'Model use'),
      el('div', {}, o.tokens !== undefined ? `its expansion: ${o.tokens} tokens, $${o.usd}` : ''),
      n.model_use.length ? table(['role', 'model', 'calls', 'tokens', '$'], n.model_use.map(u => el('tr', {},
        [u.role, u.model, u.calls, u.tokens, u.usd].map(v => el('td', {}, v))))) : el('p', { class: 'empty' }, 'no calls recorded for its jobs'),
      el('h3', {}, 'Origin'), folded(JSON.stringify(o, null, 2)),
    ] };
  },

  async eval(id) {
    const e = await get(`/api/evaluation/${id}`);
    const g = e.grading;
    return { node: e.node, body: [
      el('h2', {}, `node `, link(String(e.node), `node=${e.node}`), ` on ${e.task} (${e.label}), attempt ${e.attempt}: `,
        e.resolved ? 'resolved' : `not resolved (${g.reason || 'tests failed'})`),
      el('div', { class: 'cols' },
        el('div', {}, el('h3', {}, `Trajectory (${e.messages.length} messages)`), messagesView(e.messages)),
        el('div', {}, el('h3', {}, 'Grading log'), folded(g.test_log || '(none)'),
          g.stripped && g.stripped.length ? el('pre', { class: 'error' }, 'test or harness files in the patch (removed): ' + g.stripped.join(', ')) : [],
          g.tamper && g.tamper.length ? el('pre', { class: 'error' }, 'TAMPERED: ' + g.tamper.join('; ')) : [],
          g.gamed && g.gamed.length ? el('pre', { class: 'error' }, 'GAMED: ' + g.gamed.join('; ')) : [],
          g.flags && g.flags.length ? el('pre', {}, 'flagged by the grader (the verdict stands): ' + g.flags.join('; ')) : [],
          el('h3', {}, 'Hidden tests'), folded(JSON.stringify({ fail_to_pass: g.fail_to_pass, pass_to_pass: g.pass_to_pass }, null, 2)),
          e.judgements.length ? [el('h3', {}, 'Judge'), e.judgements.map(j => folded(`${j.score} (${j.model}): ${j.rationale}`))] : [],
          el('h3', {}, 'Patch'), diffView(g.patch || ''),
          g.agent_stderr ? [el('h3', {}, `Agent stderr (exit ${g.agent_exit})`), folded(g.agent_stderr)] : [])),
    ] };
  },

  async expansion(id) {
    const x = await get(`/api/expansion/${id}`);
    return { node: x.node, body: [el('h2', {}, 'the expansion of node ', link(String(x.parent), `node=${x.parent}`), ' that made node ',
      link(String(x.node), `node=${x.node}`), ` (job ${x.job})`), messagesView(x.messages)] };
  },

  async diff(arg) {
    const [a, b] = arg.split(',');
    const d = await get(`/api/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
    return { body: [el('h2', {}, 'diff from node ', link(String(d.a), `node=${d.a}`), ' to node ', link(String(d.b), `node=${d.b}`)), diffView(d.diff)] };
  },

  async compare(arg) {
    const [a, b] = arg.split(',');
    const c = await get(`/api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
    const rows = c.tasks.map(t => el('tr', {}, el('td', {}, t.label), el('td', {}, t.task),
      el('td', { class: t.a.n ? (t.a.resolved ? 'ok' : 'bad') : '' }, score(t.a)),
      el('td', { class: t.b.n ? (t.b.resolved ? 'ok' : 'bad') : '' }, score(t.b))));
    return { body: [el('h2', {}, 'node ', link(String(c.a), `node=${c.a}`), ' and node ', link(String(c.b), `node=${c.b}`)),
      table(['benchmark', 'task', `node ${c.a}`, `node ${c.b}`], rows), el('h3', {}, `Diff from ${c.a} to ${c.b}`), diffView(c.diff)] };
  },
};

// Each view answers { node (to select in the tree, if any), body }. Answers can come back out
// of order (a poll redraws a node while a click asks for a trajectory): only the answer for
// the latest call, and for the hash still in the URL, is shown.
let routing = 0;

async function route() {
  const hash = location.hash, turn = ++routing;
  const [kind, arg] = hash.slice(1).split('=');
  if (!views[kind]) return;
  let view;
  try {
    view = await views[kind](arg);
  } catch (err) {
    view = { body: el('p', { class: 'error' }, String(err.message || err)) };
  }
  if (turn !== routing || hash !== location.hash) return;  // a later call owns the panel
  if (view.node !== undefined) tree.select(view.node);
  const panel = $('#panel');
  panel.replaceChildren(...[view.body].flat(Infinity).filter(x => x !== null && x !== undefined));
  panel.dataset.shown = hash;
}

let version = null, lastOk = Date.now();

async function poll() {
  try {
    const v = await get('/api/version');
    lastOk = Date.now();
    if (v.version !== version) {
      const [overview, treeData] = await Promise.all([get('/api/overview'), get('/api/tree')]);
      version = Math.min(overview.version, treeData.version);  // an older answer is asked for again
      $('#run').textContent = overview.run;
      $('#overview').textContent = overview.lines.join('\n');
      const svg = new DOMParser().parseFromString(overview.chart, overview.chart.startsWith('<svg') ? 'image/svg+xml' : 'text/html');
      $('#chart').replaceChildren(document.importNode(overview.chart.startsWith('<svg') ? svg.documentElement : svg.body.firstChild, true));
      tree.update(treeData);
      $('#count').textContent = `${treeData.nodes.length} agents`;
      document.body.dataset.nodes = treeData.nodes.length;
      if (location.hash.startsWith('#node=')) {  // a node's results grow with the run: redraw it in place
        const right = $('#right'), top = right.scrollTop;
        await route();
        right.scrollTop = top;
      }
    }
    const running = await get('/api/running');
    $('#running').replaceChildren(runningView(running.jobs));
    $('#running-count').textContent = `(${running.jobs.length})`;
    if (location.hash.startsWith('#job=')) {  // a live trajectory grows: redraw it, staying at its end if there
      const right = $('#right'), top = right.scrollTop;
      const atEnd = top + right.clientHeight >= right.scrollHeight - 20;
      await route();
      right.scrollTop = atEnd ? right.scrollHeight : top;
    }
    $('#live').textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    $('#live').classList.remove('stale');
  } catch (err) {
    $('#live').textContent = `not updating (${err.message || err}); last update ${Math.round((Date.now() - lastOk) / 1000)} s ago`;
    $('#live').classList.add('stale');
  }
  setTimeout(poll, POLL_MS);
}

const tree = new TreeView($('#tree'), id => { location.hash = `node=${id}`; });
tree.onHover = text => { $('#hover').textContent = text; };
document.querySelectorAll('input.flag').forEach(box => box.addEventListener('change', () =>
  tree.setFilters([...document.querySelectorAll('input.flag:checked')].map(b => b.value))));
$('#fit').addEventListener('click', () => { tree.userMoved = false; tree.fit(); });
window.addEventListener('hashchange', route);
poll();
route();
