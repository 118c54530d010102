/* eslint-disable no-misleading-character-class -- the classes are ranges of code points (XML's NameChar), not characters that combine */
/**
 * A strict, small check that a text is a well-formed XML 1.0 document of the shape Tessera writes
 * (a declaration, one root element, elements, attributes, text, character and the five predefined
 * entity references; no comments, CDATA, DOCTYPE or processing instructions, which it never writes).
 * Returns the problem, or undefined when well-formed. Written apart from the writer so as not to share its mistakes.
 */
export function xmlProblem(xml: string): string | undefined {
  const NAME =
    /^[A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}][A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}\-.0-9\u00B7\u0300-\u036F\u203F\u2040:]*$/u;
  if (!/^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u.test(xml)) return 'a character XML 1.0 does not allow';
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!declaration) return 'no XML declaration';
  const text = (t: string): string | undefined => {
    if (/[<]/.test(t)) return `"<" in text: ${t}`;
    for (const ref of t.match(/&[^;]*;?/g) ?? [])
      if (!/^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(ref)) return `bad reference ${ref}`;
    return undefined;
  };
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([^\s/>]+)((?:\s+[^\s=]+\s*=\s*"[^"]*")*)\s*(\/?)>/gy;
  let at = declaration[0].length;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const between = xml.slice(at, lt < 0 ? xml.length : lt);
    if (stack.length === 0 && between.trim() !== '') return `text outside the root: ${between}`;
    const problem = text(between);
    if (problem) return problem;
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) return `malformed tag at ${lt}: ${xml.slice(lt, lt + 40)}`;
    const [, closing, name, attributes, selfClosing] = m;
    if (!NAME.test(name!)) return `bad element name ${name}`;
    const seen = new Set<string>();
    for (const a of attributes!.matchAll(/([^\s=]+)\s*=\s*"([^"]*)"/g)) {
      if (!NAME.test(a[1]!)) return `bad attribute name ${a[1]}`;
      if (seen.has(a[1]!)) return `attribute ${a[1]} twice`;
      seen.add(a[1]!);
      const p = text(a[2]!);
      if (p) return p;
    }
    if (closing) {
      if (attributes || selfClosing) return 'attributes on a closing tag';
      if (stack.pop() !== name) return `</${name}> closes nothing open`;
    } else {
      if (stack.length === 0 && ++roots > 1) return 'more than one root';
      if (!selfClosing) stack.push(name!);
    }
    at = tag.lastIndex;
  }
  if (stack.length > 0) return `unclosed ${stack.join(' > ')}`;
  return roots === 1 ? undefined : 'no root element';
}
