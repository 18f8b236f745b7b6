import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Opens a report's files the way a person's tools would: the PDF's text by poppler's `pdftotext`,
 * the PNG's size and contents by ImageMagick (Debian's poppler-utils and imagemagick, which
 * `.ci/run` installs).
 */

const run = promisify(execFile);

async function withFile<T>(bytes: Buffer, ext: string, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'livedash-report-'));
  const file = path.join(dir, `file.${ext}`);
  try {
    await writeFile(file, bytes);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PDF's text in reading layout, as `pdftotext -layout` gives it, and its page count. */
export function pdfText(bytes: Buffer): Promise<{ text: string; pages: number }> {
  return withFile(bytes, 'pdf', async (file) => {
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    const info = await run('pdfinfo', [file]);
    return { text: stdout, pages: Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1] ?? 0) };
  });
}

/**
 * The PNG as ImageMagick reads it: width, height, the number of distinct colours, the standard
 * deviation of its grey levels (0: one flat colour) and the colour of its top left pixel.
 */
export function pngInfo(bytes: Buffer): Promise<{ format: string; width: number; height: number; colors: number; deviation: number; corner: string }> {
  return withFile(bytes, 'png', async (file) => {
    const { stdout } = await run('identify', ['-format', '%m %w %h %k %[fx:standard_deviation]', file]);
    const [format, width, height, colors, deviation] = stdout.trim().split(/\s+/);
    const corner = await run('convert', [file, '-format', '%[pixel:p{2,2}]', 'info:']);
    return { format, width: Number(width), height: Number(height), colors: Number(colors), deviation: Number(deviation), corner: corner.stdout.trim() };
  });
}
