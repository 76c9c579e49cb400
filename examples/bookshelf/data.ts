/** The bookshelf's seed: 60 books by 12 authors, the same on every start. */

/** A book as the bookshelf stores it. Dates serialize as RFC 3339 UTC strings (spec 2.6). */
export interface Book {
  id: string;
  title: string;
  authorId: string;
  /** The author, embedded so a client needs no second call for the name (spec 2.11). */
  author: { id: string; name: string };
  year: number;
  language: string;
  pages: number;
  createdAt: Date;
  updatedAt: Date;
}

const shelf: Record<string, [title: string, year: number, pages: number][]> = {
  'jane-austen': [
    ['Pride and Prejudice', 1813, 432],
    ['Sense and Sensibility', 1811, 409],
    ['Emma', 1815, 474],
    ['Persuasion', 1817, 249],
    ['Mansfield Park', 1814, 507],
  ],
  'charles-dickens': [
    ['Great Expectations', 1861, 544],
    ['Bleak House', 1853, 1017],
    ['Oliver Twist', 1838, 608],
    ['Hard Times', 1854, 352],
    ['Little Dorrit', 1857, 1008],
  ],
  'mary-shelley': [
    ['Frankenstein', 1818, 280],
    ['The Last Man', 1826, 479],
    ['Valperga', 1823, 416],
    ['Lodore', 1835, 448],
    ['Falkner', 1837, 336],
  ],
  'herman-melville': [
    ['Moby-Dick', 1851, 635],
    ['Typee', 1846, 320],
    ['Omoo', 1847, 336],
    ['Redburn', 1849, 400],
    ['Billy Budd', 1924, 192],
  ],
  'george-eliot': [
    ['Middlemarch', 1871, 880],
    ['Silas Marner', 1861, 256],
    ['Adam Bede', 1859, 624],
    ['The Mill on the Floss', 1860, 560],
    ['Daniel Deronda', 1876, 800],
  ],
  'leo-tolstoy': [
    ['War and Peace', 1869, 1225],
    ['Anna Karenina', 1878, 864],
    ['Resurrection', 1899, 512],
    ['The Cossacks', 1863, 208],
    ['Hadji Murat', 1912, 160],
  ],
  'fyodor-dostoevsky': [
    ['Crime and Punishment', 1866, 671],
    ['The Idiot', 1869, 656],
    ['Demons', 1872, 768],
    ['The Brothers Karamazov', 1880, 796],
    ['Notes from Underground', 1864, 136],
  ],
  'mark-twain': [
    ['Adventures of Huckleberry Finn', 1884, 366],
    ['The Adventures of Tom Sawyer', 1876, 274],
    ['The Prince and the Pauper', 1881, 240],
    ['Roughing It', 1872, 592],
    ['Life on the Mississippi', 1883, 624],
  ],
  'thomas-hardy': [
    ['Tess of the d\u2019Urbervilles', 1891, 518],
    ['Far from the Madding Crowd', 1874, 464],
    ['Jude the Obscure', 1895, 496],
    ['The Mayor of Casterbridge', 1886, 400],
    ['The Return of the Native', 1878, 480],
  ],
  'emily-bronte': [
    ['Wuthering Heights', 1847, 416],
    ['Poems by Currer, Ellis and Acton Bell', 1846, 176],
    ['Gondal Poems', 1938, 96],
    ['The Complete Poems', 1941, 288],
    ['Selected Essays', 1842, 64],
  ],
  'jules-verne': [
    ['Twenty Thousand Leagues Under the Seas', 1870, 426],
    ['Around the World in Eighty Days', 1872, 256],
    ['Journey to the Centre of the Earth', 1864, 240],
    ['The Mysterious Island', 1875, 606],
    ['From the Earth to the Moon', 1865, 224],
  ],
  'virginia-woolf': [
    ['Mrs Dalloway', 1925, 224],
    ['To the Lighthouse', 1927, 320],
    ['Orlando', 1928, 352],
    ['The Waves', 1931, 304],
    ['Jacob\u2019s Room', 1922, 272],
  ],
};

/** The author an id names: a seeded author's name, else the id's words capitalised. */
export function authorOf(id: string): { id: string; name: string } {
  const name =
    authorNames[id] ??
    id
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
  return { id, name };
}

const authorNames: Record<string, string> = {
  'emily-bronte': 'Emily Bront\u00eb',
};

const languages: Record<string, string> = {
  'leo-tolstoy': 'ru',
  'fyodor-dostoevsky': 'ru',
  'jules-verne': 'fr',
};

/** Makes a lower-case, hyphen-joined id from a title (spec 4.1.3, 4.1.6). */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u2019']/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** The 60 seeded books, in a stable order, with fixed creation times an hour apart. */
export function seedBooks(): Book[] {
  const books: Book[] = [];
  const start = Date.UTC(2026, 0, 1);
  for (const [authorId, titles] of Object.entries(shelf)) {
    const language = languages[authorId] ?? 'en';
    for (const [title, year, pages] of titles) {
      const at = new Date(start + books.length * 3_600_000);
      books.push({
        id: slugify(title),
        title,
        authorId,
        author: authorOf(authorId),
        year,
        language,
        pages,
        createdAt: at,
        updatedAt: at,
      });
    }
  }
  return books;
}
