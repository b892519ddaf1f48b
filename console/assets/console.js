// koordq console: the journal's history as a strip, and the queues, quotas and units at any
// revision, read from /console/api/ (the same renderings `koordq at` and `koordq explain` print).
'use strict';

const $ = (id) => document.getElementById(id);
const state = { notice: null, journal: null, revision: 0, compare: null, queue: null, unit: null, playing: null, follow: false,
  quotaMatch: '', queueMatch: '', unitsMatch: '' };
// How many items a list asks for: a tree of 10,000 quotas or 100,000 units is cut, and says so.
const limits = { quotas: 500, queues: 500, units: 1000, found: 200, diff: 200 };
const inflight = new Map();  // one request per panel; a newer one cancels the older

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') node.textContent = v; else if (k === 'class') node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

// A list the server cut: say how many are not shown and how to reach them.
function cutNote(list, what, how) {
  const remaining = list.metadata && list.metadata.remainingItemCount;
  return remaining > 0 ? el('p', { class: 'cut', role: 'note', text: list.items.length + ' ' + what + ' shown, ' + remaining +
    ' not shown — ' + how }) : null;
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
    // Cancelled while the body was read (a newer request took the slot): not the server's fault.
    try { body = await response.json(); } catch (e) { if (aborted(e)) throw e; throw new Error('the server answered ' + response.status + ' without JSON'); }
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
  const depth = (q) => { let d = 0; let p = byName.get(q.parent); while (p && d < 64) { d++; p = byName.get(p.parent); } return d; };
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
      const hidden = i === 0 && list.hiddenChildren && list.hiddenChildren[q.metadata.name];
      const nameCell = el('td', { class: 'depth-' + Math.min(5, depth(q)) }, i === 0 ? q.metadata.name : '',
        hidden ? el('span', { class: 'tag', text: ' (' + hidden + ' children not shown)' }) : null);
      body.append(el('tr', { 'data-quota': q.metadata.name, 'data-resource': r }, nameCell, el('td', { text: r }),
        el('td', { text: (q.min || {})[r] || '' }), el('td', { class: 'used-value', text: (q.used || {})[r] || '0' }),
        el('td', { text: (q.max || {})[r] || '' }),
        el('td', {}, bar, blocks ? el('span', { class: 'blocks', text: ' blocks ' + state.unit }) : full ? el('span', { class: 'tag', text: ' full' }) : null)));
    });
  }
  table.append(body);
  const how = state.quotaMatch ? 'narrow the search' : 'the tree is cut from the top down; find a quota by name to see its branch';
  $('quota-tree').replaceChildren(...[cutNote(list, 'quotas', how),
    list.items.length ? table : el('p', { text: state.quotaMatch ? 'no quota named like "' + state.quotaMatch + '"' : 'no quotas at this revision' })].filter(Boolean));
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
    const params = { revision, object: 'queue', name, limit: limits.units };
    if (state.unitsMatch) params.match = state.unitsMatch;
    const units = await api('queue-units', 'at', params);
    const table = el('table', { 'aria-label': 'Units of queue ' + name },
      el('thead', {}, el('tr', {}, el('th', { text: 'unit' }), el('th', { text: 'phase' }), el('th', { text: 'position' }),
        el('th', { text: 'priority' }), el('th', { text: 'request' }))));
    const body = el('tbody');
    for (const u of units.items) body.append(unitRow(u));
    table.append(body);
    const how = state.unitsMatch ? 'narrow the search' : 'find a unit of this queue by name above';
    container.replaceChildren(...[cutNote(units, 'units', how),
      units.items.length ? table : el('p', { text: state.unitsMatch ? 'no unit named like "' + state.unitsMatch + '"' : 'no units' })].filter(Boolean));
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
    const find = el('form', { class: 'controls' });
    const findId = 'units-match-' + name;
    const input = el('input', { id: findId, type: 'search', spellcheck: 'false', placeholder: 'part of NS/NAME', value: state.queue === name ? state.unitsMatch : '' });
    find.append(el('label', { for: findId, text: 'Find a unit of ' + name }), input, el('button', { type: 'submit', text: 'find' }));
    find.addEventListener('submit', (e) => { e.preventDefault(); state.unitsMatch = input.value.trim(); renderQueueUnits(name, units, state.revision); });
    details.append(find, units);
    if (state.queue === name) { details.open = true; renderQueueUnits(name, units, revision); }
    details.addEventListener('toggle', () => {
      if (details.open) { if (state.queue !== name) state.unitsMatch = ''; state.queue = name; writeUrl(); renderQueueUnits(name, units, state.revision); }
      else if (state.queue === name) { state.queue = null; writeUrl(); }
    });
    wrap.append(details);
  }
  const how = state.queueMatch ? 'narrow the search' : 'find a queue by name';
  $('queue-list').replaceChildren(...[cutNote(list, 'queues', how),
    list.items.length ? wrap : el('p', { text: state.queueMatch ? 'no queue named like "' + state.queueMatch + '"' : 'no queues at this revision' })].filter(Boolean));
}

function quotaParams(revision) {
  const p = { revision, limit: limits.quotas };
  if (state.quotaMatch) p.match = state.quotaMatch;
  return p;
}

function queueParams(revision) {
  const p = { revision, object: 'queues', limit: limits.queues };
  if (state.queueMatch) p.match = state.queueMatch;
  return p;
}

async function show(revision) {
  // A large journal's first state takes a while to rebuild: say what the page waits for.
  const slow = setTimeout(() => setStatus('rebuilding the state at revision ' + revision + ' from the journal…'), 700);
  try {
    const [quotas, queues] = await Promise.all([api('quotas', 'tree', quotaParams(revision)), api('queues', 'at', queueParams(revision))]);
    if (state.unit) await renderUnit(revision);
    renderQuotas(quotas);
    renderQueues(queues, revision);
    const time = buckets.length ? '' : '';
    $('instant').textContent = 'revision ' + revision + time;
    api('resolve-time', 'resolve', { revision }).then((r) => { if (state.revision === revision) $('instant').textContent = 'revision ' + revision + ' at ' + r.time; }).catch(() => {});
    if (state.compare) await renderDiff(revision, state.compare);
    clearTimeout(slow);
    setStatus(state.notice || '', Boolean(state.notice));
  } catch (e) { clearTimeout(slow); if (!aborted(e)) setStatus(e.message, true); }
}

// A search narrows a list at the instant shown; the instant itself does not move.
async function showLists() {
  const revision = state.revision;
  try {
    const [quotas, queues] = await Promise.all([api('quotas', 'tree', quotaParams(revision)), api('queues', 'at', queueParams(revision))]);
    renderQuotas(quotas);
    renderQueues(queues, revision);
  } catch (e) { if (!aborted(e)) setStatus(e.message, true); }
}

// Units whose NAMESPACE/NAME contains a text, found by the server among every unit at the instant.
async function findUnits(text) {
  if (!text) { $('unit-matches').replaceChildren(el('p', { class: 'error', text: 'type a part of a unit\'s namespace/name to find it' })); return; }
  try {
    const found = await api('find', 'at', { revision: state.revision, object: 'units', match: text, limit: limits.found });
    const list = el('ul', { 'aria-label': 'Units named like ' + text });
    for (const u of found.items) {
      const key = u.namespace + '/' + u.name;
      const link = el('a', { href: '#unit', 'data-found': key, text: key });
      link.addEventListener('click', (e) => { e.preventDefault(); selectUnit(key); });
      list.append(el('li', {}, link, ' ' + u.phase + ' in ' + (u.queueName || '(no queue)')));
    }
    $('unit-matches').replaceChildren(...[cutNote(found, 'units', 'narrow the search'),
      found.items.length ? list : el('p', { text: 'no unit named like "' + text + '" at revision ' + state.revision })].filter(Boolean));
  } catch (e) { if (!aborted(e)) $('unit-matches').replaceChildren(el('p', { class: 'error', text: e.message })); }
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

// --- the difference between two instants: one request, the server compares ---------------------------
async function renderDiff(a, b) {
  try {
    const d = await api('diff', 'diff', { revision: a, compare: b, limit: limits.diff });
    const section = (title, part) => el('details', { open: '' },
      el('summary', { text: title + ' (' + part.total + ')' }),
      el('ul', {}, ...part.items.map((t) => el('li', { text: t }))),
      part.total > part.items.length ? el('p', { class: 'cut', role: 'note', text: part.items.length + ' shown, ' + (part.total - part.items.length) + ' not shown' }) : null);
    $('diff-body').replaceChildren(el('p', { text: 'from revision ' + d.from + ' to ' + d.to }), section('admitted', d.admitted),
      section('arrived', d.arrived), section('left', d.left), section('moved', d.moved), section('quota changes', d.quotaChanges));
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
    $('moved').textContent = j.moved || '';
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
  $('unit-find').addEventListener('click', () => findUnits($('unit-name').value.trim()));
  $('quota-form').addEventListener('submit', (e) => { e.preventDefault(); state.quotaMatch = $('quota-match').value.trim(); showLists(); });
  $('queue-form').addEventListener('submit', (e) => { e.preventDefault(); state.queueMatch = $('queue-match').value.trim(); showLists(); });
  $('strip').addEventListener('click', (e) => {
    const j = state.journal;
    const rect = $('strip').getBoundingClientRect();
    goTo(j.first + ((e.clientX - rect.left) / rect.width) * (j.head - j.first));
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input[type=text], input[type=search], input[type=number], select, textarea')) return;
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
