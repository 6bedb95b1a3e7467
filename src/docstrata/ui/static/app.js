// docstrata playground: plain JavaScript over the JSON API in docstrata/ui/server.py. No build step.
"use strict";

const TOKEN = (() => {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) { sessionStorage.setItem("docstrata-token", decodeURIComponent(m[1])); history.replaceState(null, "", location.pathname); }
  return sessionStorage.getItem("docstrata-token");
})();

const state = { tools: [], tool: null, docs: [], docsFor: null, current: null, lastSearch: null };
const MODS = ["semantic", "keyword", "exact"];
const MOD_LABEL = { semantic: "semantic", keyword: "keyword", exact: "exact", rerank: "rerank" };
const RAW_LABEL = { semantic: "cosine", keyword: "BM25", exact: "match", rerank: "score" };

// ------------------------------------------------------------------ helpers
// The characters docstrata.escaping.one_line escapes (its UNSAFE_CLASS; a test keeps the two equal):
// every Cc, U+2028/U+2029, bidi controls, lone surrogates. A name, title, term or field from a
// document is shown with them as visible escapes, so it can never pose as a line or reorder text.
const ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/g;
const NAMED = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
function visible(c) {
  if (NAMED[c]) return NAMED[c];
  const n = c.charCodeAt(0);
  return n < 0x100 ? "\\x" + n.toString(16).padStart(2, "0") : "\\u" + n.toString(16).padStart(4, "0");
}
const oneLine = (s) => String(s).replace(ONE_LINE, visible);
// a passage keeps its line breaks and tabs (it is shown pre-wrapped); the rest is escaped as above
const passageText = (s) => String(s).replace(ONE_LINE, (c) => (c === "\n" || c === "\t" ? c : visible(c)));

// An element; string children are text nodes through oneLine (passageText under `passage: true`,
// the elements holding a passage's own text), and so is a `title` tooltip.
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  const safe = attrs && attrs.passage ? passageText : oneLine;
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false || k === "passage") continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = oneLine(v);
    else if (k === "title") el.setAttribute(k, oneLine(v));
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(safe(kid)));
  }
  return el;
}
const $ = (id) => document.getElementById(id);
const fmt = (x, d = 4) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));

async function call(path, body) {
  const opts = { headers: {} };
  if (TOKEN) opts.headers.Authorization = "Bearer " + TOKEN;
  if (body !== undefined) { opts.method = "POST"; opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: "HTTP " + r.status }));
  if (!r.ok) throw new Error(data.error || "HTTP " + r.status);
  return data;
}
function status(id, text, error) { const el = $(id); el.textContent = oneLine(text || ""); el.classList.toggle("error", !!error); }
function tool() { return state.tools.find((t) => t.name === state.tool); }
const qs = (o) => Object.entries(o).map(([k, v]) => encodeURIComponent(k) + "=" + encodeURIComponent(v)).join("&");

// ------------------------------------------------------------------ settings forms
function settingsForm(container, prefix, defaults, overrides) {
  const d = Object.assign({}, defaults, overrides || {});
  container.replaceChildren(...[
    h("label", {}, "Mode", h("select", { name: "mode" }, ["hybrid", "semantic", "keyword", "exact"].map(
      (m) => h("option", { value: m, selected: m === d.mode }, m)))),
    h("label", {}, "Top k", h("input", { type: "number", name: "top_k", min: 1, max: 100, value: d.top_k })),
    h("label", {}, "Semantic weight", h("input", { type: "number", name: "semantic_weight", step: "0.025", min: 0, value: d.semantic_weight })),
    h("label", {}, "Keyword weight", h("input", { type: "number", name: "keyword_weight", step: "0.025", min: 0, value: d.keyword_weight })),
    h("label", {}, "Exact weight", h("input", { type: "number", name: "exact_weight", step: "0.025", min: 0, value: d.exact_weight })),
    h("label", {}, "RRF k", h("input", { type: "number", name: "rrf_k", min: 1, value: d.rrf_k })),
    tool() && tool().can_rerank ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "rerank", checked: d.rerank }), "Rerank") : null,
    h("label", { title: "drop hits whose cosine similarity to the query is below this (0-1)" }, "Min similarity",
      h("input", { type: "number", name: "min_score", step: "0.05", min: 0, max: 1, value: d.min_score ?? "" })),
    prefix === "s" ? h("label", {}, records() ? "File" : "Document", docSelect()) : null,
    prefix === "s" && !records() ? h("label", {}, "Section prefix", h("input", { name: "section", class: "wide", placeholder: "4 or article-17" })) : null,
    prefix === "s" && records() ? h("label", { title: "record fields: FIELD=VALUE, FIELD=A,B, FIELD<N (<=, >, >=); ';' between conditions" }, "Fields",
      h("input", { name: "filters", class: "wide", placeholder: filterHint() })) : null,
  ].filter(Boolean));
}
function records() { return !!tool() && tool().type === "vectorstore"; }
function filterHint() {
  const f = (tool() && tool().meta_fields) || [];
  return f.length ? f.slice(0, 2).map((n, i) => i ? `${n}<100` : `${n}=value`).join("; ") : "field=value; price<50";
}
function docSelect() {
  return h("select", { name: "document" }, h("option", { value: "" }, "all documents"),
    state.docs.map((d) => h("option", { value: d.doc_key }, d.doc_key)));
}
function readSettings(container) {
  const out = {};
  for (const el of container.querySelectorAll("input, select")) {
    if (el.type === "checkbox") out[el.name] = el.checked;
    else if (el.value !== "") out[el.name] = el.type === "number" ? Number(el.value) : el.value;
  }
  return out;
}

// ------------------------------------------------------------------ search view
function highlighted(text, spans, from = 0, to = text.length) {
  const out = []; let at = from;
  for (const [s, e, kind] of spans || []) {
    const a = Math.max(s, from), b = Math.min(e, to);
    if (a < at || a >= b) continue;
    out.push(passageText(text.slice(at, a)), h("mark", { class: kind, passage: true, title: kind === "exact" ? "exact match" : "query term" }, text.slice(a, b)));
    at = b;
  }
  out.push(passageText(text.slice(at, to)));
  return out;
}

// text with its highlights, the characters a..b (the cited item) set apart as the pinpoint
function withItem(text, spans, a, b, title) {
  if (a < 0 || b <= a) return highlighted(text, spans);
  return [highlighted(text, spans, 0, a), h("span", { class: "pinitem", passage: true, title }, highlighted(text, spans, a, b)),
    highlighted(text, spans, b)];
}

// A hit whose query cites a sub-item of its chunk ("Art. 17(3)(b)"): shown as the CLI and MCP show it
// (the item under the lead-in of its enclosing items, "…" where the rest is left out), the chunk a click away.
function passage(r) {
  const p = r.pinpoint;
  if (!p) return h("div", { class: "text", passage: true }, highlighted(r.content, r.highlights));
  const title = "the cited item " + p.section_id;
  const at = p.view.lastIndexOf(p.text);
  const box = h("div", { class: "text pinpointed" });
  const toggle = h("button", { class: "link pin-toggle", type: "button" });
  let whole = false;
  const show = () => {
    box.replaceChildren(...(whole ? withItem(r.content, r.highlights, p.start, p.end, title)
      : withItem(p.view, p.view_highlights, at, at < 0 ? -1 : at + p.text.length, title)).flat(Infinity));
    toggle.textContent = whole ? "show the cited item only" : "show the whole chunk";
  };
  toggle.addEventListener("click", () => { whole = !whole; show(); });
  show();
  return h("div", {}, h("div", { class: "pinpoint-line" }, p.line, " · ", toggle), box);
}

function targetLinks(x) {  // a reference naming several sections ("Articles 12 to 22") links each once
  const members = x.members || [x];
  return members.map((m) => m.resolved
    ? h("a", { href: "#", class: "xref", title: `open ${m.document} § ${m.section_id}`,
      onclick: (e) => { e.preventDefault(); openSection(m.document, m.section_id); } }, "→ § " + m.section_id)
    : h("span", { class: "unresolved", title: "no such section found" }, x.members ? m.target : "unresolved"));
}

function xrefLinks(xrefs) {
  if (!xrefs || !xrefs.length) return null;
  return h("div", { class: "xref-list" }, h("h4", {}, "Cross-references"),
    xrefs.map((x) => x.members
      ? h("span", {}, x.text + " ", ...targetLinks(x))
      : h("span", {}, x.resolved
        ? h("a", { href: "#", class: "xref", title: `open ${x.document} § ${x.section_id}`,
          onclick: (e) => { e.preventDefault(); openSection(x.document, x.section_id); } }, `${x.text} → § ${x.section_id}`)
        : h("span", { class: "unresolved", title: "no such section found" }, x.text))));
}

function citedBy(c) {
  if (!c) return null;
  return h("div", { class: "xref-list", id: "cited-by" }, h("h4", {}, `Cited by (${c.total})`),
    c.citers.map((x) => h("div", {},
      h("a", { href: "#", class: "xref", title: x.excerpt,
        onclick: (e) => { e.preventDefault(); openSection(x.document, x.section_id); } },
        (x.document !== c.document ? x.document + " " : "") + "§ " + x.section_id),
      " " + x.references.join("; "))),
    c.total > c.citers.length ? h("div", { class: "muted" }, `${c.total - c.citers.length} more`) : null);
}

function whyText(r, results, settings) {
  const m = r.modalities;
  const parts = MODS.filter((k) => m[k] && m[k].rank).map((k) => `${k} rank ${m[k].rank} → ${fmt(m[k].contribution)}`);
  let s = parts.length ? `Fused ${fmt(r.fused_score)} = ${parts.join(" + ")} (weight ÷ (${settings.rrf_k} + rank)).`
    : r.chunk_type === "record" ? `Record score ${fmt(r.fused_score)} (fused; per-modality ranks are not reported for records).`
    : "Not ranked by any modality.";
  if (r.pinned) s = `Placed first because the query names this ${r.chunk_type === "record" ? "record (its id or a field value)" : "section"} (exact match); ` + s;
  if (m.rerank) s += ` Reordered by the reranker (score ${fmt(m.rerank.score, 3)}).`;
  const above = results[r.rank - 2];
  if (above && !r.pinned && !m.rerank) {
    const gap = above.fused_score - r.fused_score;
    s += ` ${fmt(gap)} below #${above.rank} (§ ${above.citation.section_id || above.chunk_id})`;
    const lead = MODS.filter((k) => (above.modalities[k].contribution || 0) > (m[k].contribution || 0));
    if (lead.length) s += `, which scores higher on ${lead.join(" and ")}`;
    s += ".";
  }
  return s;
}

function scoreTable(r) {
  const max = Math.max(...MODS.map((k) => r.modalities[k].contribution || 0), 1e-9);
  const rows = MODS.map((k) => {
    const m = r.modalities[k];
    const on = m.rank !== null && m.rank !== undefined;
    return h("tr", { class: on ? "" : "off" },
      h("td", {}, h("span", { class: "mod " + k }, MOD_LABEL[k])),
      h("td", {}, on ? "#" + m.rank : "not found"),
      h("td", {}, on && m.score !== null ? `${RAW_LABEL[k]} ${fmt(m.score, k === "keyword" ? 2 : 3)}` : "–"),
      h("td", {}, m.weight === null ? "–" : fmt(m.weight, 3)),
      h("td", {}, on && m.contribution ? [h("span", { class: "bar " + k, style: `width:${Math.round(60 * m.contribution / max)}px` }), fmt(m.contribution)] : "0"));
  });
  if (r.modalities.rerank) rows.push(h("tr", {}, h("td", {}, h("span", { class: "mod rerank" }, "rerank")), h("td", {}, "–"),
    h("td", {}, "score " + fmt(r.modalities.rerank.score, 3)), h("td", {}, "–"), h("td", {}, "orders the list")));
  rows.push(h("tr", { class: "total" }, h("td", {}, "fused"), h("td", {}, "#" + r.rank), h("td", {}), h("td", {}), h("td", {}, fmt(r.fused_score))));
  return h("table", { class: "scores" }, h("thead", {}, h("tr", {}, ["modality", "rank", "raw score", "weight", "contribution"].map((t) => h("th", {}, t)))), h("tbody", {}, rows));
}

function resultCard(r, view) {
  const c = r.citation;
  const title = c.parent_chain.length ? c.parent_chain[c.parent_chain.length - 1] : r.chunk_id;
  const chain = c.parent_chain[0] === c.document_title ? c.parent_chain : [c.document_title, ...c.parent_chain];
  const path = chain.slice(0, -1).filter(Boolean).join(" › ");
  const defs = r.definitions.length ? h("div", {}, h("h4", {}, "Definitions used"),
    h("div", { class: "defs" }, r.definitions.map((d) => h("div", {}, h("dt", {}, d.term), h("dd", { passage: true }, "— " + d.definition))))) : null;
  const meta = Object.keys(r.metadata || {}).length ? h("div", {}, h("h4", {}, "Fields"),
    h("div", { class: "defs" }, Object.entries(r.metadata).map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, String(v)))))) : null;
  return h("article", { class: "result" + (r.pinned ? " pinned" : ""), "data-chunk": r.chunk_id, "data-section": c.section_id },
    h("div", { class: "rhead" }, h("span", { class: "rank" }, "#" + r.rank),
      h("span", { class: "rtitle" }, title, r.pinned ? h("span", { class: "badge pin" }, r.chunk_type === "record" ? "pinned: named record" : "pinned: named section") : null,
        r.pinpoint ? h("span", { class: "badge pinpoint", title: r.pinpoint.line }, "pinpoint " + r.pinpoint.section_id) : null,
        h("span", { class: "badge type" }, r.chunk_type)),
      h("span", { class: "fused" }, "fused ", h("b", {}, fmt(r.fused_score)))),
    h("div", { class: "cite" }, path ? path + " › " : "", h("span", { class: "sid" }, c.section_id ? "§ " + c.section_id : r.chunk_id),
      " · ", h("button", { class: "link", type: "button", title: "open the whole section",
        onclick: () => c.section_id ? openSection(c.document, c.section_id) : null }, c.document),
      c.pages ? " · " + c.pages : "",
      h("span", { class: "muted mono" }, "  " + r.chunk_id)),
    h("div", { class: "why" }, whyText(r, view.results, view.settings)),
    scoreTable(r),
    passage(r),
    h("div", { class: "extras" }, defs, xrefLinks(r.cross_references), meta));
}

async function runSearch(e) {
  if (e) e.preventDefault();
  const query = $("q").value.trim();
  if (!query) return;
  status("search-status", "Searching…");
  try {
    const view = await call("/api/search", { tool: state.tool, query, settings: readSettings($("search-settings")) });
    state.lastSearch = view;
    const s = view.settings;
    const w = s.mode === "hybrid" ? ` · weights semantic ${s.semantic_weight} / keyword ${s.keyword_weight} / exact ${s.exact_weight} · RRF k ${s.rrf_k}` : "";
    const narrowed = [s.document ? "document " + s.document : "", s.section ? "section " + s.section : "",
      s.filters ? "fields " + JSON.stringify(s.filters) : ""].filter(Boolean);
    status("search-status", `${view.results.length} results in ${view.elapsed_ms} ms · ${s.mode}${w}` +
      (narrowed.length ? ` · only ${narrowed.join(", ")}` : ""));
    const c = view.confidence;
    $("search-confidence").replaceChildren(
      h("span", { class: "badge conf " + c.level, title: "the answer's confidence signal (README, Confidence)" }, "confidence " + c.level),
      " " + c.reason,
      ...view.notices.map((n) => h("div", { class: "notice" }, n)));
    $("results").replaceChildren(...view.results.map((r) => resultCard(r, view)));
    if (!view.results.length) $("results").append(h("p", { class: "muted" }, "No results."));
  } catch (err) { status("search-status", err.message, true); $("search-confidence").replaceChildren(); }
}

// ------------------------------------------------------------------ section drawer
async function openSection(doc, sid) {
  const drawer = $("drawer");
  drawer.hidden = false;
  $("drawer-title").textContent = oneLine(`§ ${sid}`);
  $("drawer-body").replaceChildren(h("p", { class: "muted" }, "Loading…"));
  try {
    const s = await call("/api/section?" + qs({ tool: state.tool, document: doc, section_id: sid }));
    $("drawer-title").textContent = oneLine(`§ ${s.section_id} · ${s.parent_chain[s.parent_chain.length - 1] || ""}`);
    $("drawer-doc").onclick = () => { drawer.hidden = true; showDocument(s.document, s.section_id); };
    $("drawer-body").replaceChildren(
      h("div", { class: "muted" }, (s.parent_chain[0] === s.document_title ? s.parent_chain : [s.document_title, ...s.parent_chain]).filter(Boolean).join(" › ")),
      h("div", { class: "muted mono" }, `${s.document} · ${s.chunk_ids.length} chunk(s)`),
      h("div", { class: "text", id: "section-text", passage: true }, s.content),
      h("div", { class: "extras" }, xrefLinks(s.cross_references), citedBy(s.cited_by)));
  } catch (err) { $("drawer-body").replaceChildren(h("p", { class: "status error" }, err.message)); }
}

// ------------------------------------------------------------------ documents view
async function loadDocs() {
  if (state.docsFor === state.tool) return state.docs;
  state.docs = await call("/api/documents?" + qs({ tool: state.tool }));
  state.docsFor = state.tool;
  return state.docs;
}

function renderDocList() {
  const records = tool() && tool().type === "vectorstore";
  const langs = state.docs.some((d) => d.language);
  const head = records ? ["file", "records"] : ["document", "type", "sections", "chunks", ...(langs ? ["language"] : [])];
  $("doc-list").replaceChildren(h("h3", {}, records ? "Record files" : "Documents"),
    h("table", { class: "list" }, h("thead", {}, h("tr", {}, head.map((t) => h("th", { class: ["sections", "chunks", "records"].includes(t) ? "num" : "" }, t)))),
      h("tbody", {}, state.docs.map((d) => h("tr", { class: "doc" + (state.current === d.doc_key ? " active" : ""), "data-doc": d.doc_key,
        onclick: () => records ? null : showDocument(d.doc_key) },
        records ? [h("td", {}, d.doc_key), h("td", { class: "num" }, d.total_chunks)] : [
          h("td", {}, h("div", {}, h("strong", {}, d.title)), h("div", { class: "muted mono" }, d.doc_key),
            d.summary ? h("div", { class: "summary" }, d.summary) : null),
          h("td", {}, d.file_type), h("td", { class: "num" }, d.section_count), h("td", { class: "num" }, d.total_chunks),
          langs ? h("td", {}, d.language || "–") : null])))));
}

function shortTitle(s) {
  const t = s.title || "";
  return t.startsWith(s.section_id + " ") || t.startsWith(s.section_id + ".") ? t.slice(s.section_id.length).replace(/^[.\s]+/, "") : t;
}

function sectionNode(s, kids, flash, carried) {
  const meta = `level ${s.level} · ${s.tokens} tokens · ${s.chunks.length} chunk${s.chunks.length === 1 ? "" : "s"}`;
  const chips = s.chunks.map((c) =>
    h("span", { class: "chip " + c.chunk_type, title: `${c.chunk_id}: ${c.tokens} tokens, holds ${c.holds.join(", ")}` },
      `#${c.ordinal} · ${c.tokens} tok · ${c.chunk_type}`));
  for (const c of carried[s.section_id] || []) {
    if (c.holds[c.holds.length - 1] !== s.section_id) chips.push(h("span", { class: "chip header", title: "this heading has no text of its own; it opens the chunk of the section after it" }, `heading carried in #${c.ordinal}`));
  }
  const kidNodes = (kids[s.section_id] || []).map((k) => sectionNode(k, kids, flash, carried));
  return h("details", { open: true, class: flash === s.section_id ? "flash" : "", "data-section": s.section_id },
    h("summary", { class: kidNodes.length ? "" : "leaf" }, h("span", { class: "sid" }, s.section_id), shortTitle(s), h("span", { class: "meta" }, meta)),
    chips.length ? h("div", { class: "chunks" }, chips) : null, kidNodes);
}

async function showDocument(docKey, flash) {
  selectView("documents");
  await loadDocs();
  state.current = docKey;
  renderDocList();
  $("doc-detail").replaceChildren(h("p", { class: "muted" }, "Loading…"));
  try {
    const d = await call("/api/document?" + qs({ tool: state.tool, document: docKey }));
    const kids = {}; const roots = []; const carried = {};
    for (const s of d.sections) (s.parent_id ? (kids[s.parent_id] = kids[s.parent_id] || []) : roots).push(s);
    for (const s of d.sections) for (const c of s.chunks) for (const sid of c.holds) if (sid !== s.section_id) (carried[sid] = carried[sid] || []).push(c);
    const resolvedN = d.cross_references.filter((x) => x.resolved).length;
    $("doc-detail").replaceChildren(
      h("h3", {}, d.title), h("div", { class: "muted mono" }, `${d.doc_key} · ${d.sections.length} sections · ${d.chunks} chunks · ${d.tokens} tokens`),
      h("h4", {}, "Section tree"),
      h("div", { class: "tree", id: "tree" }, roots.map((s) => sectionNode(s, kids, flash, carried))),
      h("div", { class: "docgrid" },
        h("div", {}, h("h4", {}, `Definitions (${d.definitions.length})`),
          h("table", { class: "list" }, h("tbody", {}, d.definitions.map((x) => h("tr", {},
            h("td", {}, h("strong", {}, x.term)), h("td", {}, x.section_id ? "§ " + x.section_id : "–"), h("td", { passage: true }, x.definition)))))),
        h("div", {}, h("h4", {}, `Cross-references (${d.cross_references.length}, ${resolvedN} resolved)`),
          h("table", { class: "list", id: "xref-table" }, h("tbody", {}, d.cross_references.map((x) => h("tr", {},
            h("td", {}, "§ " + x.from_section), h("td", {}, x.text),
            h("td", {}, ...targetLinks(x)))))))));
    if (flash) { const el = document.querySelector(`#tree details[data-section="${CSS.escape(flash)}"]`); if (el) el.scrollIntoView({ block: "center" }); }
  } catch (err) { $("doc-detail").replaceChildren(h("p", { class: "status error" }, err.message)); }
}

// ------------------------------------------------------------------ compare view
function changeBadge(ch, side) {
  if (side === "a") return ch.rank_b ? null : h("span", { class: "chg gone", title: "not in B's list" }, "gone in B");
  if (!ch.rank_a) return h("span", { class: "chg new", title: "not in A's list" }, "new");
  const d = ch.rank_a - ch.rank_b;
  if (d > 0) return h("span", { class: "chg up", title: `rank ${ch.rank_a} in A` }, "▲" + d);
  if (d < 0) return h("span", { class: "chg down", title: `rank ${ch.rank_a} in A` }, "▼" + (-d));
  return h("span", { class: "chg same" }, "=");
}

function compareColumn(label, view, changes, side) {
  const s = view.settings;
  return h("div", { class: "panel", "data-side": side }, h("h3", {}, label),
    h("div", { class: "muted" }, `${s.mode} · top ${s.top_k}` + (s.mode === "hybrid" ? ` · ${s.semantic_weight} / ${s.keyword_weight} / ${s.exact_weight} · k ${s.rrf_k}` : "")),
    view.results.map((r) => h("div", { class: "crow", "data-chunk": r.chunk_id },
      h("span", { class: "rank" }, "#" + r.rank),
      h("span", {}, h("strong", {}, r.citation.section_id ? "§ " + r.citation.section_id + " " : ""),
        r.citation.section_id ? shortTitle({ section_id: r.citation.section_id, title: r.citation.parent_chain.slice(-1)[0] || "" }) : r.chunk_id,
        h("div", { class: "muted mono" }, r.citation.document)),
      h("span", { class: "mono" }, fmt(r.fused_score)), changeBadge(changes[r.chunk_id], side))));
}

async function runCompare(e) {
  if (e) e.preventDefault();
  const query = $("cq").value.trim();
  if (!query) return;
  status("compare-status", "Comparing…");
  try {
    const v = await call("/api/compare", { tool: state.tool, query, a: readSettings($("set-a")), b: readSettings($("set-b")) });
    const moved = Object.values(v.changes).filter((c) => c.rank_a !== c.rank_b).length;
    status("compare-status", `${moved} of ${Object.keys(v.changes).length} passages change rank between A and B`);
    $("compare-out").replaceChildren(compareColumn("A", v.a, v.changes, "a"), compareColumn("B", v.b, v.changes, "b"));
  } catch (err) { status("compare-status", err.message, true); }
}

function chart(rows, k) {
  const metrics = ["ndcg@10", `recall@${k}`];
  const colors = { A: "#2856c8", B: "#c2410c" };
  const W = 420, H = 190, left = 40, bottom = 30, bw = 46, gap = 70;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  const el = (tag, attrs, text) => { const n = document.createElementNS(svg.namespaceURI, tag); for (const [a, v] of Object.entries(attrs)) n.setAttribute(a, v); if (text !== undefined) n.textContent = text; svg.append(n); return n; };
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("class", "chart");
  const plotH = H - bottom - 14;
  for (const t of [0, 0.5, 1]) { const y = 14 + plotH * (1 - t); el("line", { x1: left, x2: W - 10, y1: y, y2: y, stroke: "#e3e6eb" }); el("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, t.toFixed(1)); }
  metrics.forEach((m, i) => {
    const x0 = left + 20 + i * (2 * bw + gap);
    rows.forEach((r, j) => {
      const v = r.metrics[m] || 0; const bh = plotH * v;
      el("rect", { x: x0 + j * bw, y: 14 + plotH - bh, width: bw - 6, height: bh, fill: colors[r.label] || "#667085", rx: 2 });
      el("text", { x: x0 + j * bw + (bw - 6) / 2, y: 14 + plotH - bh - 3, "text-anchor": "middle" }, v.toFixed(3));
    });
    el("text", { x: x0 + bw - 3, y: H - 10, "text-anchor": "middle" }, m === "ndcg@10" ? "nDCG@10" : `Recall@${k}`);
  });
  rows.forEach((r, j) => { el("rect", { x: W - 70, y: 14 + j * 16, width: 10, height: 10, fill: colors[r.label] }); el("text", { x: W - 55, y: 23 + j * 16 }, "setting " + r.label); });
  return svg;
}

async function runEval(e) {
  e.preventDefault();
  const qf = $("eval-queries").files[0];
  if (!qf) { status("eval-status", "choose a queries file", true); return; }
  const rf = $("eval-qrels").files[0];
  const k = Number($("eval-k").value) || 10;
  status("eval-status", "Evaluating both settings…");
  try {
    const v = await call("/api/eval", { tool: state.tool, queries: await qf.text(), qrels: rf ? await rf.text() : null,
      a: readSettings($("set-a")), b: readSettings($("set-b")), k });
    status("eval-status", `${v.queries} ${v.query_set} queries`);
    const rows = v.settings;
    $("eval-out").replaceChildren(
      h("table", { class: "list", id: "eval-table" }, h("thead", {}, h("tr", {}, ["setting", "mode", "nDCG@10", `Recall@${v.k}`, "seconds"].map((t) => h("th", {}, t)))),
        h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.label), h("td", {}, r.settings.mode), h("td", { class: "num" }, fmt(r.metrics["ndcg@10"])),
          h("td", { class: "num" }, fmt(r.metrics[`recall@${v.k}`])), h("td", { class: "num" }, r.seconds))))),
      chart(rows, v.k));
  } catch (err) { status("eval-status", err.message, true); }
}

// ------------------------------------------------------------------ wiring
function selectView(name) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.view === name);
  for (const v of document.querySelectorAll(".view")) v.classList.toggle("active", v.id === "view-" + name);
  if (name === "documents") loadDocs().then(renderDocList).catch((err) => $("doc-list").replaceChildren(h("p", { class: "status error" }, err.message)));
}

async function chooseTool(name) {
  state.tool = name; state.current = null;
  const d = tool().defaults;
  await loadDocs().catch(() => []);
  settingsForm($("search-settings"), "s", d);
  settingsForm($("set-a"), "a", d);
  settingsForm($("set-b"), "b", d, { mode: d.mode === "hybrid" ? "keyword" : "hybrid" });
  $("results").replaceChildren(); $("compare-out").replaceChildren();
  $("doc-detail").replaceChildren(h("p", { class: "muted" }, "Choose a document to see its section tree, definitions and cross-references."));
  status("search-status", tool().description || "");
}

async function init() {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => selectView(b.dataset.view));
  $("search-form").addEventListener("submit", runSearch);
  $("compare-form").addEventListener("submit", runCompare);
  $("eval-form").addEventListener("submit", runEval);
  $("drawer-close").addEventListener("click", () => { $("drawer").hidden = true; });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") $("drawer").hidden = true; });
  try {
    state.tools = await call("/api/tools");
    $("tool").replaceChildren(...state.tools.map((t) => h("option", { value: t.name }, `${t.name} (${t.type})`)));
    $("tool").addEventListener("change", () => chooseTool($("tool").value));
    await chooseTool(state.tools[0].name);
    document.body.dataset.ready = "1";
  } catch (err) { status("search-status", err.message, true); }
}
init();
