// The console's shell: who is signed in, the team or organization being worked on, the sections it
// offers, and hash routes (#/team/<id>/keys …) that each render one page into <main>.
import { setCsrfToken, signInApi, whenSignedOut } from './api.js';
import { errorBox, fill, h } from './dom.js';
import { deliveriesPage } from './page-deliveries.js';
import { guidePage, guidesPage } from './page-guides.js';
import { keysPage } from './page-keys.js';
import { settingsPage } from './page-settings.js';
import { completeSignIn, signInPage } from './page-sign-in.js';
import { webhooksPage } from './page-webhooks.js';

const main = document.getElementById('main');
const top = document.getElementById('top');
let session = null;
let leaveHandlers = [];

// Ids in the address are only ever UUIDs: anything else names nothing, and never reaches an API path.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const API_REFUSAL = "Only the team's ADMIN members and its organization's admins may open the team's API settings.";

const SECTIONS = [
  { slug: 'keys', label: 'API keys', needs: 'api', page: keysPage },
  { slug: 'webhooks', label: 'Webhooks', needs: 'api', page: webhooksPage },
  { slug: 'settings', label: 'API settings', needs: 'api', page: settingsPage },
  { slug: 'guides', label: 'Guides', needs: 'read', teamOnly: true, page: guidesPage },
];

/** Every team and organization the person works in, organizations first. */
function homes() {
  if (!session) return [];
  return [
    ...session.organizations.map((o) => ({ type: 'organization', id: o.id, name: o.name, plan: o.plan, access: 'api' })),
    ...session.teams.map((t) => ({
      type: 'team',
      id: t.id,
      name: t.name ?? 'Unnamed team',
      plan: t.plan,
      access: t.access,
      role: t.role,
      organization_id: t.organization_id,
      organization_name: t.organization_name,
    })),
  ];
}

const sectionsFor = (home) =>
  SECTIONS.filter((s) => (s.needs === 'api' ? home.access === 'api' : true) && !(s.teamOnly && home.type !== 'team'));

function navigate(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

function parseHash() {
  const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
  return { parts: (path || '/').split('/').filter(Boolean), params: new URLSearchParams(search) };
}

function renderTop(home, section) {
  if (!session) return fill(top, h('span', { class: 'brand' }, 'Guide service'));
  const picker = h(
    'select',
    {
      id: 'home-picker',
      onchange: (event) => {
        const [type, id] = event.target.value.split(':');
        const next = homes().find((x) => x.type === type && x.id === id);
        navigate(`#/${type}/${id}/${sectionsFor(next)[0].slug}`);
      },
    },
    homes().map((x) =>
      h(
        'option',
        { value: `${x.type}:${x.id}`, selected: home && x.type === home.type && x.id === home.id },
        x.type === 'organization' ? `${x.name} (organization)` : x.organization_name ? `${x.name} · ${x.organization_name}` : x.name,
      ),
    ),
  );
  const who = session.operator ? 'Operator' : (session.user.name ?? session.user.email);
  fill(
    top,
    h('span', { class: 'brand' }, 'Guide service'),
    homes().length > 0 && h('div', { class: 'picker' }, h('label', { for: 'home-picker' }, 'Working on'), picker),
    home &&
      h(
        'nav',
        { 'aria-label': 'Sections' },
        h(
          'ul',
          {},
          sectionsFor(home).map((s) =>
            h('li', {}, h('a', { href: `#/${home.type}/${home.id}/${s.slug}`, 'aria-current': s === section ? 'page' : false }, s.label)),
          ),
        ),
      ),
    h(
      'div',
      { class: 'who' },
      h('span', { class: 'muted' }, who),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: async () => {
            try {
              await signInApi.signOut();
            } catch (error) {
              // Still signed in (the service refused or could not be reached): say so rather than pretend.
              fill(main, h('h1', { tabindex: -1 }, 'Signing out did not work'), errorBox(error));
              main.querySelector('h1')?.focus();
              return;
            }
            session = null;
            setCsrfToken(null);
            navigate('#/sign-in');
          },
        },
        'Sign out',
      ),
    ),
  );
}

/** Shows a home's menus for a page that found its home itself (a guide opened by id). */
function showHome(type, id, slug) {
  const home = homes().find((x) => x.type === type && x.id === id) ?? { type, id, name: id, access: 'read' };
  renderTop(home, SECTIONS.find((s) => s.slug === slug));
  return home;
}

function setSession(data) {
  session = data;
  setCsrfToken(data?.csrf_token ?? null);
}

async function loadSession() {
  if (session) return session;
  try {
    setSession((await signInApi.whoAmI()).data);
  } catch {
    setSession(null);
  }
  return session;
}

function firstHash() {
  const first = homes()[0];
  return first ? `#/${first.type}/${first.id}/${sectionsFor(first)[0].slug}` : null;
}

async function render() {
  for (const leave of leaveHandlers.splice(0)) leave();
  const context = { main, navigate, onLeave: (fn) => leaveHandlers.push(fn), homes, session: () => session, setSession, showHome };
  const { parts, params } = parseHash();
  try {
    if (parts[0] === 'sign-in') {
      renderTop(null, null);
      if (parts[1]) return await completeSignIn(context, parts[1], firstHashAfterSignIn);
      return signInPage(context, firstHashAfterSignIn);
    }
    if (!(await loadSession())) return navigate('#/sign-in');
    const nothingHere = () =>
      fill(main, h('h1', { tabindex: -1 }, 'There is no such page'), h('p', {}, h('a', { href: firstHash() ?? '#/' }, 'Go to the console')));
    if (parts[0] === 'guides' && parts[1]) {
      renderTop(null, null);
      const guideId = decodeURIComponent(parts[1]);
      return UUID.test(guideId) ? await guidePage({ ...context, params }, guideId) : nothingHere();
    }
    const [type, id, slug, endpointId] = parts;
    if (type !== 'team' && type !== 'organization') {
      const hash = firstHash();
      if (hash) return navigate(hash);
      renderTop(null, null);
      return fill(main, h('h1', { tabindex: -1 }, 'Nothing to manage yet'), h('p', {}, 'You are not a member of any team yet. Ask a team admin to add you.'));
    }
    if (!UUID.test(id ?? '') || (endpointId !== undefined && !UUID.test(endpointId))) {
      renderTop(null, null);
      return nothingHere();
    }
    // A home the menus do not list still opens: the API decides, and its refusal is shown in words.
    const home = homes().find((x) => x.type === type && x.id === id) ?? { type, id, name: id, access: 'api' };
    const section = SECTIONS.find((s) => s.slug === slug) ?? SECTIONS[0];
    renderTop(home, section);
    // A home the menus list says what the person may do there: API settings stay closed to EDITOR and
    // VIEWER members, even where a page would only read (a team's plan).
    if (section.needs === 'api' && home.access !== 'api') {
      return fill(main, h('h1', { tabindex: -1 }, `${section.label} · ${home.name}`), errorBox({ detail: API_REFUSAL, code: 'forbidden' }));
    }
    if (section.slug === 'webhooks' && endpointId) return await deliveriesPage({ ...context, home, params }, endpointId);
    await section.page({ ...context, home, params });
  } catch (error) {
    fill(main, h('h1', { tabindex: -1 }, 'Something went wrong'), errorBox(error));
  } finally {
    main.querySelector('h1')?.focus();
  }
}

function firstHashAfterSignIn() {
  return firstHash() ?? '#/';
}

whenSignedOut(() => {
  setSession(null);
  navigate('#/sign-in');
});
window.addEventListener('hashchange', render);
render();
