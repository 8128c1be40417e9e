// Every piece of data reaches the page as text: elements are built with the DOM and filled with textContent, never
// parsed from strings as markup, so a `<script>` inside a state value or a model's answer stays visible text.

const SVG = 'http://www.w3.org/2000/svg';

/** An element with properties (class, text, dataset, style, on<event>, attributes) and children (nodes or text). */
export function el(tag, props = {}, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** An SVG element, the same way. */
export function svg(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), props, children);
}

function fill(node, props, children) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.setAttribute('class', value);
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') for (const [name, data] of Object.entries(value)) node.dataset[name] = String(data);
    else if (key === 'style')
      for (const [name, style] of Object.entries(value)) node.style.setProperty(name, String(style));
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** Appends nodes and text (strings and numbers become text nodes; null, undefined and false are skipped). */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(
      typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
    );
  }
  return node;
}

/**
 * A name (agent, tool, session, state key) as text that wraps between its words: a <wbr> after each _ . : and /
 * (browsers already wrap after -). With the `.name` rule of style.css, a word breaks only if it alone is wider than
 * its box. The text itself is unchanged.
 */
export function nameNodes(name) {
  return String(name)
    .split(/(?<=[_.:/])/)
    .flatMap((word, at) => (at === 0 ? [word] : [el('wbr'), word]));
}

/** An element showing a name (see `nameNodes`). */
export function nameEl(tag, props, name) {
  return el(tag, { ...props, class: props.class ? `${props.class} name` : 'name' }, nameNodes(name));
}

/** A time as text that never wraps inside (2026-01-02 10:11:12 UTC). */
export function timeEl(seconds) {
  return el('span', { class: 'time', text: formatTime(seconds) });
}

export function byId(id) {
  return document.getElementById(id);
}

/** The text field with this id (the page's forms), so its value is typed. */
export function inputById(id) {
  return /** @type {HTMLInputElement} */ (document.getElementById(id));
}

export function formatNumber(value) {
  return Number(value).toLocaleString('en-US');
}

/** Milliseconds as "850 ms" or "1.23 s". */
export function formatDuration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  return ms < 1000 ? `${formatNumber(Math.round(ms))} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function formatTime(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '';
  return new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** A text with ranges marked: `marks` are `{ start, end, title }` within `text`, in any order, not overlapping. */
export function markedText(text, marks, className = 'mark') {
  const sorted = [...marks]
    .filter((mark) => mark.end > mark.start && mark.start >= 0 && mark.end <= text.length)
    .sort((a, b) => a.start - b.start);
  const nodes = [];
  let at = 0;
  for (const mark of sorted) {
    if (mark.start < at) continue;
    if (mark.start > at) nodes.push(text.slice(at, mark.start));
    nodes.push(el('mark', { class: className, title: mark.title, text: text.slice(mark.start, mark.end) }));
    at = mark.end;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

/** A button that copies a text to the clipboard, saying so when it did. */
export function copyButton(label, getText) {
  const button = el('button', { type: 'button', class: 'copy', text: label });
  button.addEventListener('click', async () => {
    const text = getText();
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select the text and copy it';
    }
    setTimeout(() => (button.textContent = label), 1500);
  });
  return button;
}

/**
 * US dollars as text: cents for a dollar or more ($12.50), four significant digits below ($0.0309, $0.000125), and
 * "<$0.000001" for less; "$0" for nothing.
 */
export function formatUsd(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  if (value === 0) return '$0';
  if (value >= 1) return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (value < 0.000001) return '<$0.000001';
  return `$${String(Number(value.toPrecision(4)))}`;
}

/** A share (0 to 1) as a whole percentage: "67%". */
export function formatShare(share) {
  return `${Math.round(share * 100)}%`;
}
