import { joinAuthors, nextBookPage } from '@/features/books/bookRules';

describe('nextBookPage', () => {
  const books = (n: number) => Array.from({ length: n }, (_, i) => ({ _id: String(i) }));

  it('asks for the next page after a full one', () => {
    expect(nextBookPage(books(10), 1)).toBe(2);
    expect(nextBookPage(books(10), 4)).toBe(5);
  });

  it('stops after a page with fewer books than the page size', () => {
    expect(nextBookPage(books(9), 3)).toBeUndefined();
    expect(nextBookPage([], 2)).toBeUndefined();
  });

  it('stops after a page with no data', () => {
    expect(nextBookPage(undefined, 1)).toBeUndefined();
  });
});

describe('joinAuthors', () => {
  it('joins several authors with a comma and a space', () => {
    expect(joinAuthors(['Terry Pratchett', 'Neil Gaiman'])).toBe('Terry Pratchett, Neil Gaiman');
    expect(joinAuthors(['Homer'])).toBe('Homer');
  });

  it("says 'unknown author' when there are none", () => {
    expect(joinAuthors([])).toBe('unknown author');
  });
});
