import { Tokenizer } from 'htmlparser2';

/** What a reader hears of a document: tags and text in document order. */
export interface MarkupHandler {
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
}

/** HTML elements that never have content: opened and closed at once. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/**
 * Reads HTML (or XML with `xml`) with htmlparser2's tokenizer and hands its tags and text to `handler`,
 * entities decoded. No element tree and no stack of open elements is kept, so the time is linear in the
 * file however deeply it nests (htmlparser2's Parser shifts its whole stack at every tag: 300,000 nested
 * tags take it minutes). The readers that use this keep the little state they need themselves.
 * Tag and attribute names are lower case in HTML; XML names lose any namespace prefix (`x:row` → `row`).
 */
export function readMarkup(source: string, xml: boolean, handler: MarkupHandler): void {
  let tag = '';
  let attributes: Record<string, string> = {};
  let attribute = '';
  let value = '';
  const nameOf = (start: number, end: number) => {
    const name = source.slice(start, end);
    return xml ? name.replace(/^[^:]*:/, '') : name.toLowerCase();
  };
  const tokenizer = new Tokenizer(
    { xmlMode: xml, decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = nameOf(start, end);
        attributes = {};
      },
      onattribname(start, end) {
        attribute = nameOf(start, end);
        value = '';
      },
      onattribdata(start, end) {
        value += source.slice(start, end);
      },
      onattribentity(codepoint) {
        value += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (!(attribute in attributes)) attributes[attribute] = value;
      },
      onopentagend() {
        handler.open(tag, attributes);
        if (!xml && VOID.has(tag)) handler.close(tag);
      },
      onselfclosingtag() {
        handler.open(tag, attributes);
        if (xml || VOID.has(tag)) handler.close(tag);
      },
      onclosetag(start, end) {
        const name = nameOf(start, end);
        // `</br>` is a line break in browsers; other void end tags mean nothing.
        if (!xml && VOID.has(name)) {
          if (name === 'br') {
            handler.open('br', {});
            handler.close('br');
          }
          return;
        }
        handler.close(name);
      },
      ontext(start, end) {
        handler.text(source.slice(start, end));
      },
      ontextentity(codepoint) {
        handler.text(String.fromCodePoint(codepoint));
      },
      oncdata(start, end, offset) {
        // CDATA is text in XML; HTML outside SVG and MathML has none (a bogus comment).
        if (xml) handler.text(source.slice(start, end - offset));
      },
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(source);
  tokenizer.end();
}
