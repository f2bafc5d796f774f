/**
 * PDFs that need pdf.js's optional resources, made with real tools: a JPEG 2000 scan (Debian's opj_compress),
 * a CCITT Group 4 fax scan (libtiff's ppm2tiff and tiff2pdf, as scanner software writes them), a JBIG2 scan
 * (the same Group 4 bits in a JBIG2 generic region, which JBIG2 codes with MMR, i.e. Group 4), a Japanese
 * font that is not embedded and uses a predefined CMap, and the standard fonts pdf-lib writes unembedded.
 * Also pdftoppm (poppler) to render a page the way another reader does, for comparison.
 */
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';

/** A US Letter page, in points. */
export const PAGE = { width: 612, height: 792 } as const;

/** Where each scan is drawn on its page, in points from the bottom left. */
export const IMAGE_BOX = { x: 72, y: 360, width: 468, height: 360 } as const;

/** The four quadrants of the scans, top-left first, as RGB: what a reader must show in each. */
export const JPX_QUADRANTS: [number, number, number][] = [[220, 30, 30], [30, 160, 60], [30, 60, 200], [
  20,
  20,
  20,
]];
/** The bilevel scans: black top-left and bottom-right, white elsewhere. */
export const BILEVEL_QUADRANTS: [number, number, number][] = [[0, 0, 0], [255, 255, 255], [255, 255, 255], [
  0,
  0,
  0,
]];

const SCAN = { width: 240, height: 184 } as const;

async function run(command: string, args: string[]): Promise<void> {
  const result = await new Deno.Command(command, { args, stdout: 'null', stderr: 'piped' }).output();
  if (!result.success) throw new Error(`${command} failed: ${new TextDecoder().decode(result.stderr)}`);
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-decoders-' });
  try {
    return await work(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The quadrant (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) a pixel of the scan falls in. */
function quadrant(x: number, y: number): number {
  return (y < SCAN.height / 2 ? 0 : 2) + (x < SCAN.width / 2 ? 0 : 1);
}

/** A binary PPM (P6) of the four colour quadrants. */
function colourPpm(): Uint8Array {
  const header = new TextEncoder().encode(`P6\n${SCAN.width} ${SCAN.height}\n255\n`);
  const out = new Uint8Array(header.length + SCAN.width * SCAN.height * 3);
  out.set(header);
  let at = header.length;
  for (let y = 0; y < SCAN.height; y++) {
    for (let x = 0; x < SCAN.width; x++) {
      out.set(JPX_QUADRANTS[quadrant(x, y)], at);
      at += 3;
    }
  }
  return out;
}

/** A binary PBM (P4, 1 = black) of the bilevel quadrants. */
function bilevelPbm(): Uint8Array {
  const header = new TextEncoder().encode(`P4\n${SCAN.width} ${SCAN.height}\n`);
  const rowBytes = Math.ceil(SCAN.width / 8);
  const out = new Uint8Array(header.length + rowBytes * SCAN.height);
  out.set(header);
  for (let y = 0; y < SCAN.height; y++) {
    for (let x = 0; x < SCAN.width; x++) {
      if (BILEVEL_QUADRANTS[quadrant(x, y)][0] !== 0) continue;
      out[header.length + y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return out;
}

/** A one-page PDF that draws `image` (an image XObject's dictionary and bytes) over IMAGE_BOX, with a caption. */
async function pageWithImage(
  image: { dict: Record<string, unknown>; bytes: Uint8Array },
  title: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const stream = doc.context.stream(image.bytes, { Type: 'XObject', Subtype: 'Image', ...image.dict });
  page.node.setXObject(PDFName.of('Scan'), doc.context.register(stream));
  const { x, y, width, height } = IMAGE_BOX;
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(width, 0, 0, height, x, y),
    drawObject('Scan'),
    popGraphicsState(),
  );
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 72, y: 740, size: 14, font });
  return await doc.save({ useObjectStreams: false });
}

/** A page whose scan is a JPEG 2000 image (JPXDecode), encoded losslessly by OpenJPEG's opj_compress. */
export function jpxPdf(): Promise<Uint8Array> {
  return inTempDir(async (dir) => {
    await Deno.writeFile(`${dir}/scan.ppm`, colourPpm());
    await run('opj_compress', ['-i', `${dir}/scan.ppm`, '-o', `${dir}/scan.jp2`]);
    const bytes = await Deno.readFile(`${dir}/scan.jp2`);
    // JPXDecode: the colour space and depth come from the JPEG 2000 file itself.
    return pageWithImage(
      { dict: { Width: SCAN.width, Height: SCAN.height, Filter: 'JPXDecode' }, bytes },
      'JPX',
    );
  });
}

/**
 * The Group 4 bits of the bilevel scan, as scanning software writes them: libtiff's ppm2tiff codes the PBM
 * as a one-strip Group 4 TIFF, and tiff2pdf passes that strip into a PDF as it is (CCITTFaxDecode, K -1).
 */
function group4Bits(): Promise<Uint8Array> {
  return inTempDir(async (dir) => {
    await Deno.writeFile(`${dir}/scan.pbm`, bilevelPbm());
    await run('ppm2tiff', ['-c', 'g4', '-r', String(SCAN.height), `${dir}/scan.pbm`, `${dir}/scan.tif`]);
    await run('tiff2pdf', ['-o', `${dir}/scan.pdf`, `${dir}/scan.tif`]);
    const doc = await PDFDocument.load(await Deno.readFile(`${dir}/scan.pdf`));
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFRawStream)) continue;
      if (object.dict.get(PDFName.of('Filter'))?.toString() === '/CCITTFaxDecode') return object.contents;
    }
    throw new Error('tiff2pdf wrote no CCITTFaxDecode image');
  });
}

/** A page whose scan is a Group 4 fax image (CCITTFaxDecode), with tiff2pdf's parameters. */
export async function ccittPdf(): Promise<Uint8Array> {
  const dict = {
    Width: SCAN.width,
    Height: SCAN.height,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 1,
    Filter: 'CCITTFaxDecode',
    DecodeParms: { K: -1, Columns: SCAN.width, Rows: SCAN.height },
  };
  return pageWithImage({ dict, bytes: await group4Bits() }, 'CCITT');
}

function u32(value: number): number[] {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** A JBIG2 segment header (T.88 7.2) with no referred-to segments, on page 1, followed by its data. */
function segment(number: number, type: number, data: number[] | Uint8Array): number[] {
  return [...u32(number), type, 0x00, 0x01, ...u32(data.length), ...data];
}

/**
 * A page whose scan is a JBIG2 image (JBIG2Decode), in the embedded form PDF uses (T.88 annex D.3): a page
 * information segment, then one immediate lossless generic region coded with MMR, whose data are the same
 * Group 4 bits libtiff wrote (JBIG2's MMR is T.6 with 1 as black, as in the PBM), then the end of the page.
 */
export async function jbig2Pdf(): Promise<Uint8Array> {
  const bits = await group4Bits();
  const size = [...u32(SCAN.width), ...u32(SCAN.height)];
  // Width, height, 72 dpi as pixels per metre (unknown: 0), flags 0 (default pixel white), no striping.
  const pageInformation = [...size, ...u32(0), ...u32(0), 0x00, 0x00, 0x00];
  // Region information (size, at 0,0, combination OR), then the generic region flags: MMR on.
  const region = new Uint8Array([...size, ...u32(0), ...u32(0), 0x00, 0x01, ...bits]);
  const bytes = new Uint8Array([
    ...segment(0, 48, pageInformation),
    ...segment(1, 39, region),
    ...segment(2, 49, []),
  ]);
  return pageWithImage(
    {
      dict: {
        Width: SCAN.width,
        Height: SCAN.height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 1,
        Filter: 'JBIG2Decode',
      },
      bytes,
    },
    'JBIG2',
  );
}

/** What the CJK page says, each run drawn on a line of its own. */
export const CJK_LINES = ['Hello CMap', '日本語の手紙'] as const;

/**
 * A page in a Japanese font that is not embedded (MS-Mincho, which no reader ships), addressed through the
 * predefined CMap UniJIS-UCS2-H: a reader needs that CMap to find the glyphs, and Adobe-Japan1-UCS2 to know
 * the text, both from its CMap files.
 */
export async function cjkPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('CMap');
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const { context } = doc;
  const descriptor = context.obj({
    Type: 'FontDescriptor',
    FontName: 'MS-Mincho',
    Flags: 6,
    FontBBox: [0, -141, 1000, 859],
    ItalicAngle: 0,
    Ascent: 859,
    Descent: -141,
    CapHeight: 769,
    StemV: 78,
  });
  const cidFont = context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: 'MS-Mincho',
    // Registry and Ordering are strings (context.obj would make names of them).
    CIDSystemInfo: context.obj({
      Registry: PDFString.of('Adobe'),
      Ordering: PDFString.of('Japan1'),
      Supplement: 6,
    }),
    FontDescriptor: context.register(descriptor),
    DW: 1000,
  });
  const font = context.register(context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: 'MS-Mincho',
    Encoding: 'UniJIS-UCS2-H',
    DescendantFonts: [context.register(cidFont)],
  }));
  page.node.setFontDictionary(PDFName.of('CJK'), font);
  const ucs2 = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const content = CJK_LINES.map((line, i) => `BT /CJK 28 Tf 72 ${660 - i * 60} Td <${ucs2(line)}> Tj ET`)
    .join('\n');
  page.node.set(PDFName.of('Contents'), context.register(context.flateStream(content)));
  return await doc.save({ useObjectStreams: false });
}

/** What the standard-fonts page says, one line per font: Helvetica, Times, Courier, Symbol, ZapfDingbats. */
export const STANDARD_FONT_LINES = [
  [StandardFonts.Helvetica, 'Helvetica unembedded'],
  [StandardFonts.TimesRoman, 'Times unembedded'],
  [StandardFonts.Courier, 'Courier unembedded'],
  [StandardFonts.Symbol, 'αβγδ'],
  [StandardFonts.ZapfDingbats, '✓✔✗✘'],
] as const;

/** A page in five of the standard 14 fonts, none embedded (as pdf-lib writes them). */
export async function standardFontsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Standard fonts');
  const page = doc.addPage([PAGE.width, PAGE.height]);
  let y = 680;
  for (const [name, text] of STANDARD_FONT_LINES) {
    page.drawText(text, { x: 72, y, size: 28, font: await doc.embedFont(name) });
    y -= 60;
  }
  return await doc.save({ useObjectStreams: false });
}

/** A page rendered by poppler's pdftoppm at exactly `width`×`height` pixels, as RGB bytes. */
export function popplerRender(
  pdf: Uint8Array,
  size: { width: number; height: number },
): Promise<Uint8Array> {
  return inTempDir(async (dir) => {
    await Deno.writeFile(`${dir}/in.pdf`, pdf);
    const { width, height } = size;
    const args = [
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      String(height),
    ];
    await run('pdftoppm', [...args, `${dir}/in.pdf`, `${dir}/out`]);
    const ppm = await Deno.readFile(`${dir}/out.ppm`);
    // P6, width, height, maxval, each followed by one whitespace byte.
    let at = 0;
    for (let fields = 0; fields < 4; at++) if (/\s/.test(String.fromCharCode(ppm[at]))) fields++;
    const pixels = ppm.subarray(at);
    if (pixels.length !== width * height * 3) throw new Error(`pdftoppm rendered ${pixels.length} bytes`);
    return pixels;
  });
}
