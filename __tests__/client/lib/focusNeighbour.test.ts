import { focusNeighbourLater } from '@/lib/focusNeighbour';

function list(...names: string[]) {
  const ul = document.createElement('ul');
  for (const name of names) {
    const li = document.createElement('li');
    li.tabIndex = -1;
    li.textContent = name;
    ul.append(li);
  }
  document.body.replaceChildren(ul);
  return ul;
}

describe('focusNeighbourLater', () => {
  it('focuses the item after the removed one, once it has gone', () => {
    const ul = list('a', 'b', 'c');
    const focusNeighbour = focusNeighbourLater(ul, 1);
    ul.children[1]!.remove();
    focusNeighbour();
    expect(document.activeElement).toHaveTextContent('c');
  });

  it('focuses the item before when the last one goes', () => {
    const ul = list('a', 'b');
    const focusNeighbour = focusNeighbourLater(ul, 1);
    ul.children[1]!.remove();
    focusNeighbour();
    expect(document.activeElement).toHaveTextContent('a');
  });

  it('leaves the focus alone when the list had only that item', () => {
    const ul = list('a');
    const focusNeighbour = focusNeighbourLater(ul, 0);
    ul.children[0]!.remove();
    focusNeighbour();
    expect(document.activeElement).toBe(document.body);
  });
});
