import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitsDimensions, isImage, isUploadedFile, matchesTypes, vouchForUpload, withinKilobytes } from '../../../../domain/uploads/uploaded-file.js';
import type { UploadedFile } from '../../../../domain/uploads/uploaded-file.js';

function file(overrides: Partial<UploadedFile> = {}): UploadedFile {
  return vouchForUpload({ originalName: 'a.png', size: 2048, sniffedType: 'image/png', sniffedExtension: 'png', dimensions: { width: 300, height: 200 }, ...overrides });
}

const TEXT = file({ originalName: 'a.csv', sniffedType: null, sniffedExtension: null, dimensions: null });
const PDF = file({ originalName: 'a.pdf', sniffedType: 'application/pdf', sniffedExtension: 'pdf', dimensions: null });
const JPEG = file({ sniffedType: 'image/jpeg', sniffedExtension: 'jpg' });
const SVG_CLAIMED = file({ originalName: 'x.svg', sniffedType: 'application/xml', sniffedExtension: 'xml', dimensions: null });

describe('file checks for the file rules', () => {
  it.each([
    ['png', file(), true],
    ['jpeg', JPEG, true],
    ['gif', file({ sniffedType: 'image/gif', sniffedExtension: 'gif' }), true],
    ['webp', file({ sniffedType: 'image/webp', sniffedExtension: 'webp' }), true],
    ['pdf', PDF, false],
    ['text', TEXT, false],
    ['svg (script-capable)', SVG_CLAIMED, false],
  ])('isImage: %s → %s', (_name, value, expected) => {
    expect(isImage(value)).toBe(expected);
  });

  it.each([
    [file(), ['png'], true],
    [file(), ['PNG', 'gif'], true],
    [file(), ['.png'], true],
    [file(), ['jpg'], false],
    [JPEG, ['jpeg'], true],
    [JPEG, ['jpg'], true],
    [PDF, ['pdf'], true],
    [PDF, ['application/pdf'], true],
    [file(), ['image/*'], true],
    [PDF, ['image/*'], false],
    [TEXT, ['csv'], true],
    [TEXT, ['txt'], true],
    [TEXT, ['png', 'pdf'], false],
    [TEXT, ['text/plain'], false],
    [file(), [], false],
  ])('matchesTypes(%o, %j) → %s', (value, allowed, expected) => {
    expect(matchesTypes(value, allowed)).toBe(expected);
  });

  it.each([
    [{ minWidth: 300 }, true],
    [{ minWidth: 301 }, false],
    [{ maxWidth: 300, maxHeight: 200 }, true],
    [{ maxHeight: 199 }, false],
    [{ minHeight: 201 }, false],
    [{ width: 300, height: 200 }, true],
    [{ width: 299 }, false],
    [{ height: 201 }, false],
    [{ ratio: 3 / 2 }, true],
    [{ ratio: 1 }, false],
    [{}, true],
  ])('fitsDimensions(300×200, %j) → %s', (constraints, expected) => {
    expect(fitsDimensions(file(), constraints)).toBe(expected);
  });

  it('a file with no dimensions (not an image) fits no dimensions rule', () => {
    expect(fitsDimensions(PDF, {})).toBe(false);
    expect(fitsDimensions(file({ dimensions: { width: 10, height: 0 } }), { ratio: 1 })).toBe(false);
  });

  it.each([
    [2048, 2, true],
    [2049, 2, false],
    [0, 0, true],
  ])('withinKilobytes(%i bytes, %i KiB) → %s', (size, kilobytes, expected) => {
    expect(withinKilobytes(file({ size }), kilobytes)).toBe(expected);
  });

  it('isUploadedFile tells a file from text and from look-alikes', () => {
    expect(isUploadedFile(file())).toBe(true);
    expect(isUploadedFile(TEXT)).toBe(true);
    for (const value of ['a.png', null, 3, {}, { originalName: 'a', size: '3' }, [file()]]) expect(isUploadedFile(value)).toBe(false);
  });

  it('isUploadedFile refuses data that only looks like a file: parsed JSON can never pass image or mimes', () => {
    const typed = JSON.parse('{"originalName":"a.png","size":10,"sniffedType":"image/png","sniffedExtension":"png","dimensions":{"width":1,"height":1}}') as unknown;
    expect(isUploadedFile(typed)).toBe(false);
    expect(isUploadedFile({ ...file() })).toBe(false);
  });

  it('property: the checks never throw, whatever the facts and constraints', () => {
    const facts = fc.record({
      originalName: fc.string(),
      size: fc.oneof(fc.nat(), fc.double()),
      sniffedType: fc.option(fc.string()),
      sniffedExtension: fc.option(fc.string()),
      dimensions: fc.option(fc.record({ width: fc.integer(), height: fc.integer() })),
    });
    fc.assert(
      fc.property(facts, fc.array(fc.string()), fc.record({ minWidth: fc.integer(), ratio: fc.double() }, { requiredKeys: [] }), (value, allowed, constraints) => {
        expect(typeof isImage(value)).toBe('boolean');
        expect(typeof matchesTypes(value, allowed)).toBe('boolean');
        expect(typeof fitsDimensions(value, constraints)).toBe('boolean');
      }),
    );
  });
});
