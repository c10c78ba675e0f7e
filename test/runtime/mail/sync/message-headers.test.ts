import { describe, expect, it } from 'vitest';
import { classifyMessage, messageIdsIn, parseHeaderBlock } from '../../../../runtime/mail/sync/message-headers.js';

describe('parseHeaderBlock and messageIdsIn', () => {
  it('unfolds continued lines and reads every id of References in order', () => {
    const headers = parseHeaderBlock('Message-ID: <a@x>\r\nReferences: <r1@x>\r\n <r2@x>\r\n\t<r3@x>\r\nIn-Reply-To: <r3@x>\r\n\r\n');
    expect(messageIdsIn(headers.get('references'))).toEqual(['<r1@x>', '<r2@x>', '<r3@x>']);
    expect(messageIdsIn(headers.get('in-reply-to'))).toEqual(['<r3@x>']);
    expect(messageIdsIn(headers.get('message-id'))).toEqual(['<a@x>']);
    expect(messageIdsIn(undefined)).toEqual([]);
  });
});

describe('classifyMessage', () => {
  const cases: { name: string; headers: Record<string, string>; subject?: string; want: string }[] = [
    { name: 'a plain answer', headers: {}, subject: 'Re: Hello', want: 'reply' },
    { name: 'Auto-Submitted: no', headers: { 'auto-submitted': 'no' }, want: 'reply' },
    { name: 'Auto-Submitted: auto-replied', headers: { 'auto-submitted': 'auto-replied' }, want: 'auto_reply' },
    { name: 'Auto-Submitted with a parameter', headers: { 'auto-submitted': 'Auto-Replied; owner-email="a@x"' }, want: 'auto_reply' },
    { name: 'X-Autoreply', headers: { 'x-autoreply': 'yes' }, want: 'auto_reply' },
    { name: 'X-Autorespond', headers: { 'x-autorespond': 'vacation' }, want: 'auto_reply' },
    { name: 'Precedence: auto_reply', headers: { precedence: 'auto_reply' }, want: 'auto_reply' },
    { name: 'an out-of-office subject', headers: {}, subject: 'Out of Office: Hello', want: 'auto_reply' },
    { name: 'an Outlook automatic reply', headers: {}, subject: 'Automatic reply: Hello', want: 'auto_reply' },
    { name: 'Auto-Submitted: auto-generated', headers: { 'auto-submitted': 'auto-generated' }, want: 'automated' },
    { name: 'Precedence: bulk', headers: { precedence: 'bulk' }, want: 'automated' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(classifyMessage(new Map(Object.entries(c.headers)), c.subject ?? 'Re: Hello')).toBe(c.want);
    });
  }
});
