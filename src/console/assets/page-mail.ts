// The operator's mail outbox: every e-mail the service queued, newest first, and whether SMTP took it
// (without SMTP_URL, none is ever sent: they are only kept here). Sign-in links in them are shown redacted.
import { api } from './api.js';
import type { Answer, Mail } from './api-types.js';
import type { PageContext } from './context.js';
import { errorBox, fill, h, loading, table, time } from './dom.js';

export async function mailPage(context: PageContext): Promise<void> {
  const { main } = context;
  const list = h('div', {}, loading('Loading the outbox…'));
  fill(main, h('h1', { tabindex: -1 }, 'Mail'), h('p', { class: 'muted' }, 'What the service sent or is to send, newest first (kept 30 days).'), list);
  try {
    const mail = (await api.get<Answer<Mail[]>>('/mail?limit=100')).data;
    if (mail.length === 0) return fill(list, h('p', { class: 'muted' }, 'No mail yet.'));
    fill(
      list,
      table(
        'Mail',
        ['To', 'Subject', 'Queued', 'Sent'],
        mail.map((each) => [
          each.to.join(', '),
          h('details', {}, h('summary', {}, each.subject), h('pre', { class: 'mail-text' }, each.text)),
          time(each.created_at),
          each.sent_at ? time(each.sent_at) : h('span', { class: 'muted' }, 'Not yet'),
        ]),
      ),
    );
  } catch (error) {
    fill(list, errorBox(error));
  }
}
