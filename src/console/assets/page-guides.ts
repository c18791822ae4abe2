// A team's guides, enough to try webhooks without curl: list, add, open, edit the title and description,
// publish or unpublish, turn the share link on or off, move to another team, delete. Each change emits
// its event (guide.created, guide.updated, guide.deleted) like any other write.
import { api, query } from './api.js';
import type { Answer, Guide, GuideSummary, Page, PublishStatus } from './api-types.js';
import type { Home, PageContext, SectionContext } from './context.js';
import { act, actionForm, confirmAction, copyButton, errorBox, fill, h, loading, notice, table, time } from './dom.js';

const canEdit = (home: Home) => home.access === 'edit' || home.access === 'api';

export async function guidesPage({ main, home }: SectionContext): Promise<void> {
  const errors = h('div');
  const list = h('div', {}, loading('Loading guides…'));
  let nextCursor: string | null = null;
  let guides: GuideSummary[] = [];

  async function load(more = false): Promise<void> {
    const page = await api.get<Page<GuideSummary>>(`/guides?${query({ team_id: home.id, limit: 50, cursor: more ? nextCursor : undefined })}`);
    guides = more ? [...guides, ...page.data] : page.data;
    nextCursor = page.next_cursor;
    if (guides.length === 0) return fill(list, h('p', { class: 'muted' }, 'No guides yet.'));
    fill(
      list,
      table(
        'Guides',
        ['Title', 'Status', 'Share link', 'Processing', 'Updated'],
        guides.map((g) => [
          h('a', { href: `#/guides/${g.id}` }, g.title || 'Untitled guide'),
          h('span', { class: `badge ${g.publish_status === 'PUBLISHED' ? 'ok' : ''}` }, g.publish_status === 'PUBLISHED' ? 'Published' : 'Draft'),
          g.is_public ? 'On' : 'Off',
          g.processing_state,
          time(g.updated_at),
        ]),
      ),
      nextCursor && h('button', { type: 'button', class: 'secondary', onclick: () => load(true).catch((e: unknown) => fill(errors, errorBox(e))) }, 'Load more'),
    );
  }

  const title = h('input', { id: 'new-guide-title', 'data-field': 'title', required: true, maxlength: 500 });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Add guide');
  const form = actionForm(
    { class: 'card' },
    errors,
    async () => {
      await api.post('/guides', { team_id: home.id, title: title.value });
      form.reset();
      await load();
    },
    h('h2', {}, 'Add a guide'),
    h('p', { class: 'muted small' }, 'A draft with this title; it emits guide.created.'),
    h('div', { class: 'field' }, h('label', { for: 'new-guide-title' }, 'Title'), title),
    submit,
  );

  const heading = h('h1', { tabindex: -1 }, `Guides · ${home.name}`);
  fill(main, heading, errors, list, canEdit(home) && form);
  try {
    await load();
  } catch (error) {
    fill(main, heading, errorBox(error));
  }
}

/** One change from the Publishing card: a PATCH of a single field. */
type GuideChange = { publish_status: PublishStatus } | { is_public: boolean };

export async function guidePage(context: PageContext, guideId: string, message: string | null = null): Promise<void> {
  const { main, navigate } = context;
  const guide = (await api.get<Answer<Guide>>(`/guides/${guideId}`)).data;
  const home = context.showHome('team', guide.team_id, 'guides');
  const editable = canEdit(home);
  const errors = h('div');
  const messages = h('div', {}, message && notice(message));

  const title = h('input', { id: 'guide-title', 'data-field': 'title', value: guide.title ?? '', maxlength: 500, disabled: !editable });
  const description = h('textarea', { id: 'guide-description', 'data-field': 'description', rows: 4, maxlength: 20000, disabled: !editable }, guide.description ?? '');
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const editForm = actionForm(
    { class: 'card' },
    errors,
    async () => {
      await api.patch(`/guides/${guide.id}`, { title: title.value || null, description: description.value || null });
      // Drawn again from the service, so the heading and facts show what was saved.
      await guidePage(context, guide.id, 'Saved.');
    },
    h('div', { class: 'field' }, h('label', { for: 'guide-title' }, 'Title'), title),
    h('div', { class: 'field' }, h('label', { for: 'guide-description' }, 'Description'), description),
    editable && save,
  );

  const change = (label: string, body: GuideChange, done: string) => {
    const button = h('button', { type: 'button', class: 'secondary' }, label);
    button.addEventListener('click', () =>
      act(button, errors, async () => {
        await api.patch(`/guides/${guide.id}`, body);
        await guidePage(context, guide.id, done);
      }),
    );
    return button;
  };

  const targets = context.homes().filter((x) => x.type === 'team' && x.id !== guide.team_id && canEdit(x));
  const moveTo = h('select', { id: 'move-to' }, targets.map((x) => h('option', { value: x.id }, x.name)));
  const moveButton = h('button', { type: 'submit', class: 'secondary' }, 'Move');
  const moveForm =
    targets.length > 0 &&
    actionForm(
      { class: 'row' },
      errors,
      async () => {
        await api.post(`/guides/${guide.id}/move`, { team_id: moveTo.value });
        await guidePage(context, guide.id, `Moved to ${moveTo.selectedOptions[0]?.textContent}.`);
      },
      h('label', { for: 'move-to' }, 'Move to team'),
      moveTo,
      moveButton,
    );

  const deleteButton = h('button', { type: 'button', class: 'danger' }, 'Delete guide');
  deleteButton.addEventListener('click', async () => {
    if (!(await confirmAction(`Delete “${guide.title || 'Untitled guide'}”? This cannot be undone.`, 'Delete guide'))) return;
    await act(deleteButton, errors, async () => {
      await api.del(`/guides/${guide.id}`);
      navigate(`#/team/${guide.team_id}/guides`);
    });
  });

  const published = guide.publish_status === 'PUBLISHED';
  fill(
    main,
    h('p', {}, h('a', { href: `#/team/${guide.team_id}/guides` }, '← Guides')),
    h('h1', { tabindex: -1 }, guide.title || 'Untitled guide'),
    messages,
    errors,
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Status'),
      h('dd', {}, published ? 'Published' : 'Draft'),
      h('dt', {}, 'Share link'),
      h(
        'dd',
        {},
        guide.is_public && guide.permalink
          ? ['On · ', h('a', { href: guide.permalink, class: 'share-link' }, guide.permalink), ' ', copyButton('share link', () => guide.permalink ?? '')]
          : 'Off: only people signed in to its team can open it',
      ),
      h('dt', {}, 'Processing'),
      h('dd', {}, guide.processing_state, guide.processing_error ? ` — ${guide.processing_error}` : ''),
      h('dt', {}, 'Steps'),
      h('dd', {}, String(guide.steps.length)),
      h('dt', {}, 'Updated'),
      h('dd', {}, time(guide.updated_at)),
    ),
    editForm,
    editable &&
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Publishing'),
        h(
          'div',
          { class: 'row wrap' },
          published ? change('Unpublish', { publish_status: 'DRAFT' }, 'Unpublished.') : change('Publish', { publish_status: 'PUBLISHED' }, 'Published.'),
          guide.is_public ? change('Turn share link off', { is_public: false }, 'Share link is off.') : change('Turn share link on', { is_public: true }, 'Share link is on.'),
        ),
        moveForm,
        h('div', { class: 'row' }, deleteButton),
      ),
  );
}
