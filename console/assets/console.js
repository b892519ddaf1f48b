// koordq console: the journal's history as a strip, and the queues, quotas and units at any
// revision, read from /console/api/ (the same renderings `koordq at` and `koordq explain` print).
'use strict';

const $ = (id) => document.getElementById(id);
const state = { notice: null, journal: null, revision: 0, compare: null, queue: null, unit: null, playing: null, follow: false };
const inflight = new Map();  // one request per panel; a newer one cancels the older

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') node.textContent = v; else if (k === 'class') node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

// A list the server cut (it answers at most 1000 items per list): say how many are not shown.
function cutNote(list, what) {
  const remaining = list.metadata && list.metadata.remainingItemCount;
  return remaining > 0 ? el('p', { class: 'tag cut', text: 'showing the first ' + list.items.length + ' ' + what + '; ' + remaining +
    ' more not shown (use koordq at … --limit for all)' }) : null;
}

function setStatus(message, isError) {
  $('status').textContent = message || '';
  $('status').className = isError ? 'error' : '';
}

async function api(slot, path, params) {
  if (inflight.has(slot)) inflight.get(slot).abort();
  const controller = new AbortController();
  inflight.set(slot, controller);
  const query = new URLSearchParams(params || {}).toString();
  try {
    const response = await fetch('api/' + path + (query ? '?' + query : ''), { signal: controller.signal });
    let body;
    try { body = await response.json(); } catch (e) { throw new Error('the server answered ' + response.status + ' without JSON'); }
    if (!response.ok) throw new Error(body.error || ('HTTP ' + response.status));
    return body;
  } finally {
    if (inflight.get(slot) === controller) inflight.delete(slot);
  }
}

const aborted = (e) => e && e.name === 'AbortError';

// --- the URL carries the instant and the selection --------------------------------------------
function writeUrl() {
  const p = new URLSearchParams();
  p.set('revision', state.revision);
  if (state.compare) p.set('compare', state.compare);
  if (state.queue) p.set('queue', state.queue);
  if (state.unit) p.set('unit', state.unit);
  history.replaceState(null, '', '?' + p.toString());
}

async function readUrl() {
  const p = new URLSearchParams(location.search);
  state.queue = p.get('queue');
  state.unit = p.get('unit');
  state.compare = p.get('compare') ? Number(p.get('compare')) : null;
  if (state.unit) $('unit-name').value = state.unit;
  if (state.compare) $('compare').value = state.compare;
  const params = {};
  if (p.get('revision')) params.revision = p.get('revision');
  else if (p.get('at')) params.at = p.get('at');
  else return state.journal.head;
  const resolved = await api('resolve', 'resolve', params);
  return resolved.revision;
}

// --- the timeline strip -------------------------------------------------------------------------
let buckets = [];
const kinds = [['arrivals', '--arrivals'], ['admissions', '--admissions'], ['failures', '--failures'], ['preemptions', '--preemptions']];

function color(variable) { return getComputedStyle(document.documentElement).getPropertyValue(variable).trim(); }

function drawStrip() {
  const canvas = $('strip');
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth, height = canvas.clientHeight;
  canvas.width = width * ratio; canvas.height = height * ratio;
  const g = canvas.getContext('2d');
  g.scale(ratio, ratio);
  g.clearRect(0, 0, width, height);
  const j = state.journal;
  if (!j || !buckets.length) return;
  const span = Math.max(1, j.head - j.first + 1);
  const x = (seq) => ((seq - j.first) / span) * width;
  let peak = 1;
  for (const b of buckets) peak = Math.max(peak, kinds.reduce((s, [k]) => s + b[k], 0));
  for (const b of buckets) {
    let y = height - 4;
    const left = x(b.firstSeq), w = Math.max(1, x(b.lastSeq + 1) - left);
    for (const [k, v] of kinds) {
      const h = (b[k] / peak) * (height - 14);
      if (!h) continue;
      g.fillStyle = color(v);
      g.fillRect(left, y - h, w, h);
      y -= h;
    }
    for (const [k, v] of [['leaderChanges', '--leader'], ['relists', '--relists']]) {
      if (!b[k]) continue;
      g.fillStyle = color(v);
      g.fillRect(left, 0, 2, 8);
    }
  }
  g.fillStyle = color('--fg');
  g.fillRect(x(state.revision), 0, 2, height);
  if (state.compare) { g.fillStyle = color('--accent'); g.fillRect(x(state.compare), 0, 2, height); }
}

async function loadTimeline() {
  try {
    const t = await api('timeline', 'timeline', { buckets: Math.min(4000, Math.max(50, Math.floor($('strip').clientWidth / 3))) });
    buckets = t.buckets;
    const j = state.journal;
    // A journal being written is always a little ahead of the index: say so only while it catches up.
    $('indexing').textContent = j.head - t.indexed > 4096 ? 'indexing the timeline: ' + t.indexed + ' of ' + j.head + ' records' : '';
    drawStrip();
    return t;
  } catch (e) { if (!aborted(e)) setStatus('timeline: ' + e.message, true); }
}

// --- the instant ---------------------------------------------------------------------------------
let pending = null;
let showing = false;

// Coalesced: while one instant renders, only the newest requested one waits.
// `notice`: a message that stays while this instant is shown (why the page is not where asked).
function goTo(revision, notice) {
  state.notice = notice || null;
  const j = state.journal;
  revision = Math.max(j.first, Math.min(j.head, Math.round(revision)));
  state.revision = revision;
  $('scrubber').value = revision;
  $('revision').value = revision;
  drawStrip();
  writeUrl();
  pending = revision;
  if (!showing) showPending();
}

async function showPending() {
  showing = true;
  while (pending !== null) {
    const revision = pending;
    pending = null;
    await show(revision);
  }
  showing = false;
}

function quantity(text) {
  if (text == null) return 0;
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(String(text));
  if (!m) return Number(text) || 0;
  const units = { '': 1, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  return Number(m[1]) * (units[m[2]] ?? 1);
}

let blocking = null;  // {quota, resource} of the selected unit's latest refused attempt

function renderQuotas(list) {
  const byName = new Map(list.items.map((q) => [q.metadata.name, q]));
  const depth = (q) => { let d = 0; let p = byName.get(q.parent); while (p && d < 5) { d++; p = byName.get(p.parent); } return d; };
  const children = new Map();
  for (const q of list.items) {
    const parent = byName.has(q.parent) ? q.parent : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(q);
  }
  const ordered = [];
  const walk = (name) => { for (const q of children.get(name) || []) { ordered.push(q); walk(q.metadata.name); } };
  walk('');
  const table = el('table', { 'aria-label': 'Quota tree at revision ' + list.metadata.resourceVersion },
    el('thead', {}, el('tr', {}, el('th', { text: 'quota' }), el('th', { text: 'resource' }), el('th', { text: 'min' }),
      el('th', { text: 'used' }), el('th', { text: 'max' }), el('th', { text: 'use' }))));
  const body = el('tbody');
  for (const q of ordered) {
    const resources = [...new Set([...Object.keys(q.max || {}), ...Object.keys(q.used || {})])].sort();
    if (!resources.length) resources.push('');
    resources.forEach((r, i) => {
      const used = quantity((q.used || {})[r]), max = quantity((q.max || {})[r]), min = quantity((q.min || {})[r]);
      const bar = el('div', { class: 'bar', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': String(max || 0), 'aria-valuenow': String(used),
        'aria-label': q.metadata.name + ' ' + r + ' used of max' });
      const fill = el('div', { class: 'used' });
      fill.style.width = (max > 0 ? Math.min(100, (used / max) * 100) : 0) + '%';
      bar.append(fill);
      if (min > 0 && max > 0) { const m = el('div', { class: 'min' }); m.style.left = Math.min(100, (min / max) * 100) + '%'; bar.append(m); }
      const full = max > 0 && used >= max;
      if (full) bar.classList.add('full');
      const blocks = blocking && blocking.quota === q.metadata.name && blocking.resource === r;
      if (blocks) bar.classList.add('blocking');
      const nameCell = el('td', { class: 'depth-' + depth(q) }, i === 0 ? q.metadata.name : '');
      body.append(el('tr', { 'data-quota': q.metadata.name, 'data-resource': r }, nameCell, el('td', { text: r }),
        el('td', { text: (q.min || {})[r] || '' }), el('td', { class: 'used-value', text: (q.used || {})[r] || '0' }),
        el('td', { text: (q.max || {})[r] || '' }),
        el('td', {}, bar, blocks ? el('span', { class: 'blocks', text: ' blocks ' + state.unit }) : full ? el('span', { class: 'tag', text: ' full' }) : null)));
    });
  }
  table.append(body);
  $('quota-tree').replaceChildren(...[cutNote(list, 'quotas'), table].filter(Boolean));
}

function unitRow(u) {
  const key = u.metadata.namespace + '/' + u.metadata.name;
  const link = el('a', { href: '#unit', 'data-unit': key, text: key });
  link.addEventListener('click', (e) => { e.preventDefault(); selectUnit(key); });
  return el('tr', { 'data-unit-row': key }, el('td', {}, link), el('td', { class: 'phase', text: u.phase }),
    el('td', { class: 'position', text: u.positionInQueue != null ? String(u.positionInQueue) : '' }),
    el('td', { text: String(u.priority ?? '') }), el('td', { text: Object.entries(u.resources || {}).map(([k, v]) => k + '=' + v).join(', ') }));
}

async function renderQueueUnits(name, container, revision) {
  try {
    const units = await api('queue-units', 'at', { revision, object: 'queue', name });
    const table = el('table', { 'aria-label': 'Units of queue ' + name },
      el('thead', {}, el('tr', {}, el('th', { text: 'unit' }), el('th', { text: 'phase' }), el('th', { text: 'position' }),
        el('th', { text: 'priority' }), el('th', { text: 'request' }))));
    const body = el('tbody');
    for (const u of units.items) body.append(unitRow(u));
    table.append(body);
    container.replaceChildren(...[cutNote(units, 'units'), units.items.length ? table : el('p', { text: 'no units' })].filter(Boolean));
  } catch (e) { if (!aborted(e)) container.replaceChildren(el('p', { class: 'error', text: e.message })); }
}

function renderQueues(list, revision) {
  const wrap = el('div');
  for (const q of list.items) {
    const name = q.metadata.name;
    const counts = Object.entries(q.phaseCounts || {}).map(([k, v]) => k + ' ' + v).join(', ');
    const details = el('details', { 'data-queue': name });
    details.append(el('summary', { text: name + ' (' + q.policy + ') — active ' + q.activeCount + ', backoff ' + q.backoffCount +
      ', admitted ' + (q.assumedCount ?? 0) + (counts ? ' — ' + counts : '') }));
    const units = el('div', { class: 'units' });
    details.append(units);
    if (state.queue === name) { details.open = true; renderQueueUnits(name, units, revision); }
    details.addEventListener('toggle', () => {
      if (details.open) { state.queue = name; writeUrl(); renderQueueUnits(name, units, state.revision); }
      else if (state.queue === name) { state.queue = null; writeUrl(); }
    });
    wrap.append(details);
  }
  $('queue-list').replaceChildren(...[cutNote(list, 'queues'), list.items.length ? wrap : el('p', { text: 'no queues at this revision' })].filter(Boolean));
}

async function show(revision) {
  try {
    const [quotas, queues] = await Promise.all([api('quotas', 'at', { revision, object: 'quotas' }), api('queues', 'at', { revision, object: 'queues' })]);
    if (state.unit) await renderUnit(revision);
    renderQuotas(quotas);
    renderQueues(queues, revision);
    const time = buckets.length ? '' : '';
    $('instant').textContent = 'revision ' + revision + time;
    api('resolve-time', 'resolve', { revision }).then((r) => { if (state.revision === revision) $('instant').textContent = 'revision ' + revision + ' at ' + r.time; }).catch(() => {});
    if (state.compare) await renderDiff(revision, state.compare);
    setStatus(state.notice || '', Boolean(state.notice));
  } catch (e) { if (!aborted(e)) setStatus(e.message, true); }
}

// --- a unit and its story -------------------------------------------------------------------------
function selectUnit(key) {
  state.unit = key;
  $('unit-name').value = key;
  writeUrl();
  renderUnit(state.revision).then(() => show(state.revision));
}

async function renderUnit(revision) {
  const [namespace, name] = (state.unit || '').split('/');
  if (!namespace || !name) { $('unit-details').replaceChildren(el('p', { class: 'error', text: 'a unit is named namespace/name' })); return; }
  try {
    const story = await api('explain', 'explain', { revision, namespace, name });
    blocking = null;
    const list = $('story');
    list.replaceChildren();
    for (const entry of story.entries) {
      const link = el('a', { href: '?revision=' + entry.seq, text: '#' + entry.seq });
      link.addEventListener('click', (e) => { e.preventDefault(); goTo(entry.seq); });
      list.append(el('li', { 'data-seq': String(entry.seq) }, link, ' ' + entry.time + ' ' + entry.kind + ': ' + entry.summary));
      if (entry.quotaPath) {
        const refused = entry.quotaPath.find((s) => !s.pass);
        blocking = refused ? { quota: refused.quota, resource: refused.resource } : null;
      }
    }
    let details;
    try {
      const unit = await api('unit', 'at', { revision, object: 'unit', namespace, name });
      details = el('p', { text: 'phase ' + unit.phase + ', queue ' + unit.queueName + ', quota ' + unit.quotaName +
        (unit.positionInQueue != null ? ', position ' + unit.positionInQueue : '') });
    } catch (e) {
      if (aborted(e)) return;
      details = el('p', { text: e.message + ' at revision ' + revision + ' (its story up to here is below)' });
    }
    $('unit-details').replaceChildren(details);
  } catch (e) {
    if (!aborted(e)) { $('story').replaceChildren(); $('unit-details').replaceChildren(el('p', { class: 'error', text: e.message })); }
  }
}

// --- the difference between two instants ------------------------------------------------------------
async function unitsAt(revision) {
  const queues = await api('diff-queues-' + revision, 'at', { revision, object: 'queues' });
  const units = new Map();
  for (const q of queues.items) {
    const list = await api('diff-units-' + revision, 'at', { revision, object: 'queue', name: q.metadata.name });
    for (const u of list.items) units.set(u.metadata.namespace + '/' + u.metadata.name, u);
  }
  return units;
}

const admittedPhases = new Set(['Dequeued', 'Reserved', 'Running', 'Succeed', 'SchedSucceed']);

async function renderDiff(a, b) {
  try {
    const [ua, ub, qa, qb] = await Promise.all([unitsAt(a), unitsAt(b), api('diff-qa', 'at', { revision: a, object: 'quotas' }), api('diff-qb', 'at', { revision: b, object: 'quotas' })]);
    const [from, to, fromRev, toRev] = a <= b ? [ua, ub, a, b] : [ub, ua, b, a];
    const admitted = [], left = [], moved = [], arrived = [];
    for (const [k, u] of to) {
      const before = from.get(k);
      if (!before) arrived.push(k);
      else if (admittedPhases.has(u.phase) && !admittedPhases.has(before.phase)) admitted.push(k);
      else if (before.positionInQueue != null && u.positionInQueue != null && before.positionInQueue !== u.positionInQueue) moved.push(k + ' ' + before.positionInQueue + '→' + u.positionInQueue);
    }
    for (const k of from.keys()) if (!to.has(k)) left.push(k);
    const quotaChanges = [];
    const [qFrom, qTo] = a <= b ? [qa, qb] : [qb, qa];
    const before = new Map(qFrom.items.map((q) => [q.metadata.name, q]));
    for (const q of qTo.items) {
      const p = before.get(q.metadata.name);
      const used = JSON.stringify(q.used || {}), was = p ? JSON.stringify(p.used || {}) : '(absent)';
      if (used !== was) quotaChanges.push(q.metadata.name + ': used ' + was + ' → ' + used);
    }
    const section = (title, items) => el('details', { open: '' }, el('summary', { text: title + ' (' + items.length + ')' }),
      el('ul', {}, ...items.slice(0, 500).map((t) => el('li', { text: t }))));
    $('diff-body').replaceChildren(el('p', { text: 'from revision ' + fromRev + ' to ' + toRev }), section('admitted', admitted),
      section('arrived', arrived), section('left', left), section('moved', moved), section('quota changes', quotaChanges));
  } catch (e) { if (!aborted(e)) $('diff-body').replaceChildren(el('p', { class: 'error', text: e.message })); }
}

// --- stepping, playing, following -------------------------------------------------------------------
async function step(direction) {
  try {
    const r = await api('step', 'step', { revision: state.revision, direction });
    if (r.revision == null) { setStatus(direction === 'next' ? 'no later decision' : 'no earlier decision'); return false; }
    goTo(r.revision);
    return true;
  } catch (e) { if (!aborted(e)) setStatus(e.message, true); return false; }
}

function setPlaying(on) {
  if (state.playing) { clearInterval(state.playing); state.playing = null; }
  $('play').setAttribute('aria-pressed', on ? 'true' : 'false');
  $('play').textContent = on ? 'pause' : 'play';
  if (on) state.playing = setInterval(async () => { if (!(await step('next'))) setPlaying(false); }, 1000 / Number($('speed').value));
}

async function refreshJournal() {
  try {
    const j = await api('journal', 'journal');
    const grew = !state.journal || j.head !== state.journal.head;
    state.journal = j;
    $('journal').textContent = (j.live ? 'live · ' : 'journal ' + j.source + ' · ') + j.uuid + ' · revisions ' + j.first + '…' + j.head +
      ' · ' + j.firstTime + ' … ' + j.headTime;
    $('scrubber').min = j.first; $('scrubber').max = j.head;
    $('revision').min = j.first; $('revision').max = j.head;
    if (grew || j.indexed < j.head) await loadTimeline();
    if (state.follow && state.revision !== j.head) goTo(j.head);
  } catch (e) { if (!aborted(e)) setStatus('journal: ' + e.message, true); }
}

function bind() {
  $('scrubber').addEventListener('input', () => goTo(Number($('scrubber').value)));
  $('prev').addEventListener('click', () => step('prev'));
  $('next').addEventListener('click', () => step('next'));
  $('play').addEventListener('click', () => setPlaying(!state.playing));
  $('speed').addEventListener('change', () => { if (state.playing) setPlaying(true); });
  $('follow').addEventListener('change', () => { state.follow = $('follow').checked; if (state.follow) goTo(state.journal.head); });
  $('goto').addEventListener('submit', async (e) => {
    e.preventDefault();
    const at = $('at').value.trim();
    const compare = $('compare').value.trim();
    state.compare = compare ? Number(compare) : null;
    try {
      const r = await api('resolve', 'resolve', at ? { at } : { revision: $('revision').value });
      $('at').value = '';
      goTo(r.revision);
    } catch (err) { if (!aborted(err)) setStatus(err.message, true); }
  });
  $('unit-form').addEventListener('submit', (e) => { e.preventDefault(); selectUnit($('unit-name').value.trim()); });
  $('strip').addEventListener('click', (e) => {
    const j = state.journal;
    const rect = $('strip').getBoundingClientRect();
    goTo(j.first + ((e.clientX - rect.left) / rect.width) * (j.head - j.first));
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input[type=text], input[type=number], select, textarea')) return;
    if (e.key === 'n') step('next');
    else if (e.key === 'p') step('prev');
    // Space keeps its own meaning on a control (press a button, tick a checkbox, open a summary).
    else if (e.key === ' ' && !e.target.matches('button, input, summary, a')) { e.preventDefault(); setPlaying(!state.playing); }
    else if (e.key === 'f') { $('follow').checked = !$('follow').checked; $('follow').dispatchEvent(new Event('change')); }
    else if (e.key === '/') { e.preventDefault(); $('unit-name').focus(); }
  });
  window.addEventListener('resize', drawStrip);
}

async function start() {
  bind();
  await refreshJournal();
  if (!state.journal) return;
  if (state.journal.head === 0) { setStatus('the journal holds no records yet', true); return; }
  try { goTo(await readUrl()); } catch (e) { if (!aborted(e)) goTo(state.journal.head, e.message + ' — showing the head instead'); }
  setInterval(refreshJournal, state.journal.live ? 1000 : 3000);
}

start();
