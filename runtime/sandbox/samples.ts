/**
 * The sample data the sandbox writes: small built-in lists of names, companies and phrases, and
 * a seeded generator to pick from them, so that a seed gives the same records every time and
 * needs no network and no faker package.
 */

export const FIRST_NAMES: readonly string[] = [
  'Ada',
  'Alan',
  'Barbara',
  'Claude',
  'Dorothy',
  'Edsger',
  'Frances',
  'Grace',
  'Hedy',
  'Ivan',
  'Joan',
  'Ken',
  'Katherine',
  'Linus',
  'Margaret',
  'Niklaus',
  'Radia',
  'Shafi',
  'Tim',
  'Vint',
  'Whitfield',
  'Xiaoyun',
  'Yukihiro',
  'Zhang',
  'Anita',
  'Bjarne',
  'Carol',
  'Donald',
  'Erna',
  'Fran',
];

export const LAST_NAMES: readonly string[] = [
  'Lovelace',
  'Turing',
  'Liskov',
  'Shannon',
  'Vaughan',
  'Dijkstra',
  'Allen',
  'Hopper',
  'Lamarr',
  'Sutherland',
  'Clarke',
  'Thompson',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Wirth',
  'Perlman',
  'Goldwasser',
  'Berners-Lee',
  'Cerf',
  'Diffie',
  'Wang',
  'Matsumoto',
  'Yi',
  'Borg',
  'Stroustrup',
  'Shaw',
  'Knuth',
  'Hoover',
  'Bilas',
];

export const COMPANIES: readonly { readonly name: string; readonly domain: string; readonly industry: string }[] = [
  { name: 'Acme Rockets', domain: 'acme-rockets.example', industry: 'Aerospace' },
  { name: 'Globex', domain: 'globex.example', industry: 'Energy' },
  { name: 'Initech', domain: 'initech.example', industry: 'Software' },
  { name: 'Umbrella Health', domain: 'umbrella-health.example', industry: 'Healthcare' },
  { name: 'Hooli', domain: 'hooli.example', industry: 'Internet' },
  { name: 'Stark Industries', domain: 'stark.example', industry: 'Manufacturing' },
  { name: 'Wayne Logistics', domain: 'wayne-logistics.example', industry: 'Logistics' },
  { name: 'Soylent Foods', domain: 'soylent.example', industry: 'Food' },
  { name: 'Tyrell Robotics', domain: 'tyrell.example', industry: 'Robotics' },
  { name: 'Cyberdyne Systems', domain: 'cyberdyne.example', industry: 'Defense' },
  { name: 'Vandelay Imports', domain: 'vandelay.example', industry: 'Retail' },
  { name: 'Pied Piper', domain: 'piedpiper.example', industry: 'Software' },
  { name: 'Oscorp', domain: 'oscorp.example', industry: 'Chemicals' },
  { name: 'Wonka Confections', domain: 'wonka.example', industry: 'Food' },
  { name: 'Massive Dynamic', domain: 'massive-dynamic.example', industry: 'Research' },
  { name: 'Nakatomi Trading', domain: 'nakatomi.example', industry: 'Finance' },
];

export const TITLES: readonly string[] = [
  'VP of Sales',
  'Head of Marketing',
  'CTO',
  'Director of Operations',
  'Procurement Manager',
  'Account Executive',
  'Chief Revenue Officer',
  'Engineering Manager',
  'IT Director',
  'Founder',
];

export const TAGS: readonly string[] = ['inbound', 'webinar', 'trade-show', 'referral', 'enterprise', 'smb'];

/** A deterministic generator (mulberry32): the same seed gives the same sequence of picks. */
export class SampleGenerator {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An integer in [low, high]. */
  between(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }
}

/** A person's name and the address it would have at a company's domain; `n` keeps addresses unique. */
export function samplePerson(generator: SampleGenerator, domain: string, n: number): { firstName: string; lastName: string; email: string } {
  const firstName = generator.pick(FIRST_NAMES);
  const lastName = generator.pick(LAST_NAMES);
  const local = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
  return { firstName, lastName, email: `${local}.${n}@${domain}` };
}
