// A tiny DOM builder: h("button", {class: "x", onclick: f}, "text", child).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "value") el.value = v;
    else if (k === "checked") el.checked = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Keeps focus on the element with the same data-focus-key across a re-render. */
export function focusKey(root) {
  const a = document.activeElement;
  return a && root.contains(a) ? a.dataset.focusKey ?? null : null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  const el = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (el && !el.disabled) el.focus();
}
