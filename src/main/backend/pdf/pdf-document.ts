/**
 * A PDF document as FieldDesk writes them (the assessment report, the visit sheet): A4 portrait
 * with the layout's margins and the fonts embedded by name.
 *
 * Text is set in DejaVu Sans, embedded from the `dejavu-fonts-ttf` package, since the PDF standard
 * fonts only cover WinAnsi and the report needs µ, ³, ¹·⁷⁵, ≥ and ± to print and to copy right. The
 * font files are found at run time through Node's resolver, from this module's own place: from the
 * sources under vitest and from the bundle (out/main, out/harness) alike; pdfkit itself stays an
 * external CommonJS dependency, as it reads its data files next to its own module.
 */
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { PAGE_MARGINS, type FontName } from './pdf-layout';

const FONT_FILES: Readonly<Record<FontName, string>> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  condensed: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf',
  condensedBold: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
};

// `__filename`, not `import.meta.url`: the bundles and Playwright's loader run this as CommonJS,
// which cannot parse `import.meta`; vitest's runner gives `__filename` too.
const resolveFromHere = createRequire(__filename);

/** The file of one of the fonts, resolved as Node resolves a package's file. */
export function pdfFontPath(font: FontName): string {
  return resolveFromHere.resolve(FONT_FILES[font]);
}

/**
 * An A4 portrait document as FieldDesk writes them (the report, the visit sheet): its margins, the
 * fonts embedded by name, and `finish`, which ends it and answers its bytes.
 */
export function openPdf(info: PDFKit.DocumentInfo): { doc: PDFKit.PDFDocument; finish(): Promise<Buffer> } {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margins: PAGE_MARGINS,
    bufferPages: true,
    font: pdfFontPath('regular'),
    lang: 'en-GB',
    displayTitle: true,
    info,
  });
  for (const font of Object.keys(FONT_FILES) as FontName[]) doc.registerFont(font, pdfFontPath(font));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return {
    doc,
    async finish() {
      doc.end();
      await finished;
      return Buffer.concat(chunks);
    },
  };
}
