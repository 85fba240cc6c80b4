/**
 * The team's rules that need no server: which addresses may be used (https, plain http only on
 * loopback, no password in the address), database names, and the three-way merge of two versions
 * of a record — safe merges kept, a field changed differently on both sides left to the user.
 */
import { describe, expect, it } from 'vitest';
import { checkedDatabaseName, checkedServerUrl } from '../../../src/main/backend/team/team-server';
import { mergeThreeWay } from '../../../src/main/backend/team/three-way-merge';

describe('the team server’s address', () => {
  it('is https, or plain http on this computer only, without a password in it', () => {
    expect(checkedServerUrl('https://couch.example.com/')).toBe('https://couch.example.com');
    expect(checkedServerUrl(' http://127.0.0.1:5984 ')).toBe('http://127.0.0.1:5984');
    expect(checkedServerUrl('http://localhost:5984')).toBe('http://localhost:5984');
    expect(() => checkedServerUrl('http://couch.example.com')).toThrow(/must be reached over https/);
    expect(() => checkedServerUrl('https://ann:pw@couch.example.com')).toThrow(
      /own fields, not in the address/,
    );
    expect(() => checkedServerUrl('couch.example.com')).toThrow(/not a server address/);
  });

  it('names a database as CouchDB allows', () => {
    expect(checkedDatabaseName('team-north')).toBe('team-north');
    expect(() => checkedDatabaseName('Team North')).toThrow(/not a CouchDB database name/);
    expect(() => checkedDatabaseName('_users')).toThrow(/not a CouchDB database name/);
  });
});

describe('merging two versions of a record from the one they share', () => {
  const exclusion = (id: string, reason = id) => ({ id, reason, start: 0, end: 1 });
  const base = { name: 'Quarry', exclusions: [exclusion('a')], updatedAt: 10 };

  it('keeps exclusions added on both sides, and one removed on one side stays removed', () => {
    const mine = { ...base, exclusions: [exclusion('b')], updatedAt: 20 };
    const theirs = { ...base, exclusions: [exclusion('a'), exclusion('c')], updatedAt: 30 };
    expect(mergeThreeWay(base, mine, theirs)).toEqual({
      name: 'Quarry',
      exclusions: [exclusion('b'), exclusion('c')],
      updatedAt: 30,
    });
  });

  it('takes each field changed on one side only', () => {
    expect(mergeThreeWay(base, { ...base, name: 'Quarry East' }, { ...base, exclusions: [] })).toEqual({
      ...base,
      name: 'Quarry East',
      exclusions: [],
    });
  });

  it('leaves to the user a field, or one exclusion, changed differently on both sides', () => {
    expect(mergeThreeWay(base, { ...base, name: 'East' }, { ...base, name: 'West' })).toBeNull();
    expect(
      mergeThreeWay(
        base,
        { ...base, exclusions: [exclusion('a', 'Road works')] },
        { ...base, exclusions: [exclusion('a', 'Fireworks')] },
      ),
    ).toBeNull();
  });
});
