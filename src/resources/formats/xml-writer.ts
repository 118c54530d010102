/**
 * XML 1.0 of the JSON a GET answers, well-formed whatever the names and values:
 *
 * ```xml
 * <?xml version="1.0" encoding="UTF-8"?>
 * <data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" resource="customer">
 *   <object href="…" checksum="R:…"><name>Alpha and Sons</name><balance>3101.82</balance>…</object>
 *   <next_batch href="…"/>
 * </data>
 * ```
 *
 * - An object is `<object>`; its `@metadata` becomes its XML attributes (LAC put metadata in tag
 *   attributes): scalars as `href="…"`, `checksum="…"`; `links` as `<link rel="…" href="…"/>`
 *   children first. A list's last `{"@metadata": {"next_batch": …}}` is `<next_batch href="…"/>`.
 * - An attribute is an element named as it is when the name is an XML name without a colon that
 *   does not start with `xml` (any case), else `<attribute name="…">` with the name as an XML
 *   attribute value: `Unit Price` → `<attribute name="Unit Price">`. A name never goes into
 *   markup unchecked.
 * - null is `<name xsi:nil="true"/>`; a number or boolean its JSON text; text escaped (`&`, `<`,
 *   `>`, and CR as `&#13;` so it survives line-end normalisation). Text holding a character
 *   XML 1.0 cannot carry at all (control characters other than tab, LF and CR; U+FFFE, U+FFFF;
 *   a lone surrogate) is sent as `<name encoding="base64">` of its UTF-8 bytes.
 * - A sub-resource list (custom resources) is an element holding its `<object>`s; a parent
 *   sub-resource an element holding one `<object>`, or `xsi:nil="true"` when there is none.
 * - An object-valued attribute (`inlinelimit`'s link to a long value) is an element with the
 *   object's members as XML attributes: `<notes href="…" length="5000"/>`.
 */
export function toXml(items: readonly unknown[], resource: string): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" resource="${attributeText(resource)}">`,
  ];
  writeList(items, out);
  out.push('</data>\n');
  return out.join('');
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function writeList(items: readonly unknown[], out: string[]): void {
  for (const item of items) {
    if (!isObject(item)) continue;
    const metadata = item['@metadata'];
    if (Object.keys(item).length === 1 && isObject(metadata) && typeof metadata.next_batch === 'string') {
      out.push(`<next_batch href="${attributeText(metadata.next_batch)}"/>`);
      continue;
    }
    writeObject(item, out);
  }
}

function writeObject(object: JsonObject, out: string[]): void {
  const metadata = isObject(object['@metadata']) ? object['@metadata'] : {};
  out.push(`<object${attributesOf(metadata)}>`);
  const links = metadata.links;
  if (Array.isArray(links)) for (const link of links) if (isObject(link)) out.push(`<link${attributesOf(link)}/>`);
  for (const [name, value] of Object.entries(object)) {
    if (name === '@metadata') continue;
    writeValue(name, value, out);
  }
  out.push('</object>');
}

function writeValue(name: string, value: unknown, out: string[]): void {
  const [open, close] = elementOf(name);
  if (value === null || value === undefined) {
    out.push(`<${open} xsi:nil="true"/>`);
  } else if (Array.isArray(value)) {
    out.push(`<${open}>`);
    writeList(value, out);
    out.push(`</${close}>`);
  } else if (isObject(value)) {
    if (isObject(value['@metadata']) && Object.keys(value).length === 1 && !('checksum' in value['@metadata'])) {
      // inlinelimit's link to a long value: { "@metadata": { href, length } }
      out.push(`<${open}${attributesOf(value['@metadata'])}/>`);
    } else {
      out.push(`<${open}>`);
      writeObject(value, out);
      out.push(`</${close}>`);
    }
  } else {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (XML_CHARS.test(text)) out.push(`<${open}>${elementText(text)}</${close}>`);
    else out.push(`<${open} encoding="base64">${Buffer.from(text, 'utf8').toString('base64')}</${close}>`);
  }
}

/** XML attributes from an object's scalar members whose names are safe as they are; others are left out. */
function attributesOf(object: JsonObject): string {
  let out = '';
  for (const [name, value] of Object.entries(object)) {
    if (value === null || typeof value === 'object' || !isPlainName(name)) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (XML_CHARS.test(text)) out += ` ${name}="${attributeText(text)}"`;
  }
  return out;
}

/** Every character XML 1.0 allows in a document (its `Char` production), and nothing else. */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
/** An XML `Name` without a colon (an NCName), so no namespace prefix is ever implied. */
// eslint-disable-next-line no-misleading-character-class -- ranges of code points (XML's NameChar), not characters that combine
const NC_NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u');

/** A name usable as an element or attribute name as it is: an NCName not starting with `xml` (reserved, any case). */
export function isPlainName(name: string): boolean {
  return NC_NAME.test(name) && !/^xml/i.test(name);
}

/** The opening and closing tag text for an attribute's element (see `toXml`). */
export function elementOf(name: string): [string, string] {
  if (isPlainName(name)) return [name, name];
  if (!XML_CHARS.test(name)) return [`attribute name-base64="${Buffer.from(name, 'utf8').toString('base64')}"`, 'attribute'];
  return [`attribute name="${attributeText(name)}"`, 'attribute'];
}

function elementText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c]!);
}

function attributeText(text: string): string {
  return text.replace(
    /[&<>"\t\n\r]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c]!,
  );
}
