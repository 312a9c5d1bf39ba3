import { firstRecordOf } from '@/lib/csv';

describe('the headings of a CSV file', () => {
  it('reads the first record, quotes and all, without the byte-order mark', () => {
    expect(firstRecordOf('\uFEFFcode,"Tube, size","say ""hi""",\r\nA,B,C,D\r\n')).toEqual([
      'code',
      'Tube, size',
      'say "hi"',
      '',
    ]);
  });

  it('keeps a line break inside quotes, and stops at the first one outside', () => {
    expect(firstRecordOf('"two\nlines",x\ny,z')).toEqual(['two\nlines', 'x']);
    expect(firstRecordOf('only')).toEqual(['only']);
  });
});
