// The console's shell: who is signed in, the team or organization being worked on, the sections it
// offers, and hash routes (#/team/<id>/keys …) that each render one page into <main>. A page asked for
// while signed out is opened after sign-in; a tab whose session ends keeps its page and says so.
import { api, setCsrfToken, signInApi, whenSignedBackIn, whenSignedOut } from './api.js';
import type { Access, Answer, HomeType, Session } from './api-types.js';
import type { Home, PageContext, SectionContext } from './context.js';
import { type Child, errorBox, fill, h, loading, refreshTimes } from './dom.js';
import { allTenantsAuditPage, auditPage } from './page-audit.js';
import { deliveriesPage } from './page-deliveries.js';
import { guidePage, guidesPage } from './page-guides.js';
import { keysPage } from './page-keys.js';
import { mailPage } from './page-mail.js';
import { operatorPeoplePage } from './page-operator-people.js';
import { overviewPage } from './page-overview.js';
import { peoplePage } from './page-people.js';
import { settingsPage } from './page-settings.js';
import { completeSignIn, signInPage } from './page-sign-in.js';
import { tenantsPage } from './page-tenants.js';
import { webhooksPage } from './page-webhooks.js';

// index.html has both.
const main = document.getElementById('main')!;
const top = document.getElementById('top')!;
const banner = document.getElementById('banner')!;
// Where to go once signed in, for this tab: the page that was asked for while signed out.
const RETURN_KEY = 'console.return-to';
let session: Session | null = null;
/** Who the tab was signed in as when its session ended: only they may go on in it. */
let endedAs: string | null = null;
let leaveHandlers: (() => void)[] = [];

// Ids in the address are only ever UUIDs: anything else names nothing, and never reaches an API path.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const API_REFUSAL = "Only the team's admins and its organization's admins may open the team's API settings, keys and webhooks.";
/** Where a person lands first: where they can do the most. */
const ACCESS_RANK: Record<Access, number> = { api: 0, edit: 1, read: 2 };

interface Section {
  slug: string;
  label: string;
  /** What the home must allow: its API settings, or only reading. */
  needs: 'api' | 'read';
  teamOnly?: boolean;
  organizationOnly?: boolean;
  page(context: SectionContext): Promise<void>;
}

// Never empty: the first section is where an unknown section slug leads.
const SECTIONS: readonly [Section, ...Section[]] = [
  { slug: 'keys', label: 'API keys', needs: 'api', page: keysPage },
  { slug: 'webhooks', label: 'Webhooks', needs: 'api', page: webhooksPage },
  { slug: 'settings', label: 'API settings', needs: 'api', page: settingsPage },
  { slug: 'overview', label: 'All teams', needs: 'api', organizationOnly: true, page: overviewPage },
  { slug: 'guides', label: 'Guides', needs: 'read', teamOnly: true, page: guidesPage },
  { slug: 'people', label: 'People', needs: 'read', page: peoplePage },
  { slug: 'audit', label: 'Audit log', needs: 'api', page: auditPage },
];

/** The operator's own pages (#/operator/<slug>): every tenant, people by address, the outbox, the whole audit log. */
interface OperatorSection {
  slug: string;
  label: string;
  page(context: PageContext & { params: URLSearchParams; session: Session }): Promise<void>;
}
const OPERATOR_SECTIONS: readonly [OperatorSection, ...OperatorSection[]] = [
  { slug: 'tenants', label: 'Tenants', page: tenantsPage },
  { slug: 'people', label: 'People', page: operatorPeoplePage },
  { slug: 'mail', label: 'Mail', page: mailPage },
  { slug: 'audit', label: 'Audit log', page: allTenantsAuditPage },
];

/** Every team and organization the person works in, organizations first. */
function homes(): Home[] {
  if (!session) return [];
  return [
    ...session.organizations.map((o): Home => ({ type: 'organization', id: o.id, name: o.name, access: 'api' })),
    ...session.teams.map((t): Home => ({
      type: 'team',
      id: t.id,
      name: t.name ?? 'Unnamed team',
      access: t.access,
      organization_name: t.organization_name,
    })),
  ];
}

const sectionsFor = (home: Home) =>
  SECTIONS.filter(
    (s) => (s.needs === 'api' ? home.access === 'api' : true) && !(s.teamOnly && home.type !== 'team') && !(s.organizationOnly && home.type !== 'organization'),
  );

/** Where a home opens: its first section (every home the menus list has one). */
const homeHash = (home: Home) => `#/${home.type}/${home.id}/${(sectionsFor(home)[0] ?? SECTIONS[0]).slug}`;

function navigate(hash: string): void {
  if (location.hash === hash) void render();
  else location.hash = hash;
}

function parseHash(): { parts: string[]; params: URLSearchParams } {
  const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
  return { parts: (path || '/').split('/').filter(Boolean), params: new URLSearchParams(search) };
}

/**
 * The homes as the picker groups them, by organization (the organization first, then its teams): each
 * option then holds one name, short enough to be shown in full, and the group says whose it is.
 */
function pickerGroups(): [string, Home[]][] {
  const groups = new Map<string, Home[]>();
  const add = (group: string, home: Home) => groups.set(group, [...(groups.get(group) ?? []), home]);
  for (const x of homes()) add(x.type === 'organization' ? x.name : (x.organization_name ?? 'Teams without an organization'), x);
  return [...groups];
}

/** The sections the header links: a home's, or on the operator's own pages theirs; the operator also has a way back to the tenants. */
function navigation(home: Home | null, section: Section | OperatorSection | undefined): HTMLElement | null {
  const links: HTMLElement[] = [];
  const link = (href: string, label: string, current: boolean) => h('li', {}, h('a', { href, 'aria-current': current ? 'page' : false }, label));
  if (home) links.push(...sectionsFor(home).map((s) => link(`#/${home.type}/${home.id}/${s.slug}`, s.label, s === section)));
  else if (session?.operator) links.push(...OPERATOR_SECTIONS.map((s) => link(`#/operator/${s.slug}`, s.label, s === section)));
  if (home && session?.operator) links.unshift(link('#/operator/tenants', 'All tenants', false));
  return links.length === 0 ? null : h('nav', { 'aria-label': 'Sections' }, h('ul', {}, links));
}

function renderTop(home: Home | null, section: Section | OperatorSection | undefined): void {
  if (!session) return fill(top, h('span', { class: 'brand' }, 'Guide service'));
  const current = home ? `${home.type}:${home.id}` : '';
  const go = () => {
    const [type, id] = picker.value.split(':');
    const next = homes().find((x) => x.type === type && x.id === id);
    if (next && picker.value !== current) navigate(homeHash(next));
  };
  // Arrow keys move through the choices without leaving the page; Enter (or a click) goes there, and
  // leaving the picker without it puts back the home being worked on.
  let byKeyboard = false;
  const picker: HTMLSelectElement = h(
    'select',
    {
      id: 'home-picker',
      onchange: () => {
        if (!byKeyboard) go();
      },
      onkeydown: (event: Event) => {
        const key = (event as KeyboardEvent).key;
        if (key === 'Enter') {
          byKeyboard = false;
          go();
        } else if (key.startsWith('Arrow') || key === 'Home' || key === 'End' || key === 'PageUp' || key === 'PageDown' || key.length === 1) {
          byKeyboard = true;
        }
      },
      onblur: () => {
        if (byKeyboard) picker.value = current;
        byKeyboard = false;
      },
      onmousedown: () => {
        byKeyboard = false;
      },
    },
    // A home reached by its address that the menus do not list has an option too, so that the picker
    // and the page never disagree.
    home && !homes().some((x) => x.type === home.type && x.id === home.id) && h('option', { value: current, selected: true }, home.name),
    pickerGroups().map(([group, members]) =>
      h(
        'optgroup',
        { label: group },
        members.map((x) =>
          h(
            'option',
            { value: `${x.type}:${x.id}`, selected: home && x.type === home.type && x.id === home.id, title: x.name },
            x.type === 'organization' ? `${x.name} (organization)` : x.name,
          ),
        ),
      ),
    ),
  );
  const who = session.operator ? 'Operator' : (session.user.name ?? session.user.email);
  fill(
    top,
    h('span', { class: 'brand' }, 'Guide service'),
    homes().length > 0 && h('div', { class: 'picker' }, h('label', { for: 'home-picker' }, 'Working on'), picker),
    navigation(home, section),
    h(
      'div',
      { class: 'who' },
      h('a', { href: '../docs', class: 'docs-link' }, 'API docs'),
      h('span', { class: 'muted', title: who }, who),
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

/** A home the menus do not list (an address typed or shared): named in words, never by its id. */
const unlisted = (type: HomeType, id: string, access: Access): Home => ({ type, id, name: type === 'team' ? 'This team' : 'This organization', access });

function showHome(type: HomeType, id: string, slug: string): Home {
  const home: Home = homes().find((x) => x.type === type && x.id === id) ?? unlisted(type, id, 'read');
  renderTop(home, SECTIONS.find((s) => s.slug === slug));
  return home;
}

function setSession(data: Session | null): void {
  session = data;
  if (data) endedAs = null;
  setCsrfToken(data?.csrf_token ?? null);
}

async function loadSession(): Promise<Session | null> {
  if (session) return session;
  try {
    setSession((await signInApi.whoAmI()).data);
  } catch {
    setSession(null);
  }
  return session;
}

function firstHash(): string | null {
  // The operator lands on every tenant's list.
  if (session?.operator) return '#/operator/tenants';
  const first = [...homes()].sort((a, b) => ACCESS_RANK[a.access] - ACCESS_RANK[b.access])[0];
  return first ? homeHash(first) : null;
}

/**
 * Who can open a team's API settings for a person who may not: the team's admins by name, each with a
 * link to write to them, and the organization's admins. Read from the team's members, which any member
 * may read; without them, the refusal alone.
 */
async function whoCanHelp(home: Home): Promise<Child> {
  if (home.type !== 'team') return null;
  try {
    const members = (await api.get<Answer<{ name: string | null; email: string; role: string }[]>>(`/teams/${home.id}/members`)).data;
    const admins = members.filter((member) => member.role === 'ADMIN');
    if (admins.length === 0) return `Ask an admin of ${home.organization_name ?? 'the organization'}.`;
    const links = admins.flatMap((admin, i) => [i === 0 ? '' : i === admins.length - 1 ? ' or ' : ', ', h('a', { href: `mailto:${admin.email}` }, admin.name ?? admin.email)]);
    return ['Ask ', ...links, admins.length === 1 ? ', the team’s admin' : ', the team’s admins', home.organization_name ? `, or an admin of ${home.organization_name}.` : '.'];
  } catch {
    return null;
  }
}

async function render(): Promise<void> {
  for (const leave of leaveHandlers.splice(0)) leave();
  // A question or a menu of the page left behind has nothing left to act on.
  for (const dialog of document.querySelectorAll('dialog')) dialog.close();
  const focusedAtStart = document.activeElement;
  // Each page draws into a view of its own: a page still waiting for an answer when the person moved on
  // draws, when the answer comes, into a view no longer shown, never over the page that replaced it.
  const view = h('div', { class: 'view' });
  main.replaceChildren(view);
  const context: PageContext = { main: view, navigate, onLeave: (handler) => leaveHandlers.push(handler), homes, setSession, showHome };
  const { parts, params } = parseHash();
  // Replaced by the page; until its first answer comes, the person sees that it is on its way.
  if (parts[0] !== 'sign-in' || parts[1]) fill(view, loading());
  try {
    if (parts[0] === 'sign-in') {
      fill(banner);
      renderTop(null, undefined);
      if (parts[1]) return await completeSignIn(context, parts[1], firstHashAfterSignIn);
      return signInPage(context, firstHashAfterSignIn);
    }
    const signedIn = await loadSession();
    if (!signedIn) {
      if (parts.length > 0) sessionStorage.setItem(RETURN_KEY, location.hash);
      return navigate('#/sign-in');
    }
    fill(banner);
    const nothingHere = () =>
      fill(view, h('h1', { tabindex: -1 }, 'There is no such page'), h('p', {}, h('a', { href: firstHash() ?? '#/' }, 'Go to the console')));
    if (parts[0] === 'guides' && parts[1]) {
      renderTop(null, undefined);
      const guideId = decodeURIComponent(parts[1]);
      return UUID.test(guideId) ? await guidePage(context, guideId) : nothingHere();
    }
    if (parts[0] === 'operator') {
      if (!signedIn.operator) {
        renderTop(null, undefined);
        return nothingHere();
      }
      const operatorSection = OPERATOR_SECTIONS.find((s) => s.slug === parts[1]) ?? OPERATOR_SECTIONS[0];
      renderTop(null, operatorSection);
      return await operatorSection.page({ ...context, params, session: signedIn });
    }
    const [type, id, slug, endpointId] = parts;
    if (type !== 'team' && type !== 'organization') {
      const hash = firstHash();
      if (hash) return navigate(hash);
      renderTop(null, undefined);
      return fill(view, h('h1', { tabindex: -1 }, 'Nothing to manage yet'), h('p', {}, 'You are not a member of any team yet. Ask a team admin to add you.'));
    }
    if (id === undefined || !UUID.test(id) || (endpointId !== undefined && !UUID.test(endpointId))) {
      renderTop(null, undefined);
      return nothingHere();
    }
    // A home the menus do not list still opens: the API decides, and its refusal is shown in words.
    const home: Home = homes().find((x) => x.type === type && x.id === id) ?? unlisted(type, id, 'api');
    // A section of the other kind of home (a team's Guides asked of an organization) is not there.
    const section = SECTIONS.find((s) => s.slug === slug && !(s.teamOnly && type !== 'team') && !(s.organizationOnly && type !== 'organization')) ?? SECTIONS[0];
    renderTop(home, section);
    // A home the menus list says what the person may do there: API settings stay closed to EDITOR and
    // VIEWER members, even where a page would only read (a team's plan).
    if (section.needs === 'api' && home.access !== 'api') {
      return fill(view, h('h1', { tabindex: -1 }, `${section.label} · ${home.name}`), errorBox({ detail: API_REFUSAL, code: 'forbidden' }, await whoCanHelp(home)));
    }
    const sectionContext: SectionContext = { ...context, home, params, session: signedIn };
    if (section.slug === 'webhooks' && endpointId) return await deliveriesPage(sectionContext, endpointId);
    await section.page(sectionContext);
  } catch (error) {
    fill(view, h('h1', { tabindex: -1 }, 'Something went wrong'), errorBox(error));
  } finally {
    // The page's heading takes focus, so that it is read out, unless the person has already moved on while
    // the page waited for its answers: into the page (drawn before its last answers come), or to the picker.
    const focused = document.activeElement;
    const movedOn = focused !== null && focused !== document.body && (view.contains(focused) || focused !== focusedAtStart);
    if (!movedOn) view.querySelector('h1')?.focus();
  }
}

/** The page asked for before signing in (once), else the first home's. */
function firstHashAfterSignIn(): string {
  const asked = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  if (asked && asked.startsWith('#/') && !asked.startsWith('#/sign-in')) return asked;
  return firstHash() ?? '#/';
}

// The session ended (signed out elsewhere, expired): the page and what was typed in it stay; the banner
// says so and how to go on. The next call finds a session signed in meanwhile in another tab.
const identity = (data: Session) => (data.operator ? 'operator' : `user:${data.user.email}`);

whenSignedOut(() => {
  if (session) endedAs = identity(session);
  session = null;
  sessionStorage.setItem(RETURN_KEY, location.hash);
  fill(
    banner,
    h(
      'div',
      { class: 'alert error', role: 'alert' },
      h('p', {}, h('strong', {}, 'Your session has ended.'), ' Nothing more can be saved from this tab until you sign in again. What you typed here is kept.'),
      h(
        'p',
        {},
        h('a', { href: '#/sign-in', target: '_blank', rel: 'noopener' }, 'Sign in in a new tab'),
        ' and then try again here, or ',
        h('a', { href: '#/sign-in' }, 'sign in in this tab'),
        ' (what you typed is lost).',
      ),
    ),
  );
});
whenSignedBackIn((data) => {
  if (endedAs !== null && identity(data) !== endedAs) return false;
  setSession(data);
  fill(banner);
  return true;
});
// Escape closes an open menu and gives focus back to the button that opened it.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.menu[open]')) {
    menu.open = false;
    menu.querySelector('summary')?.focus();
  }
});
// "2 minutes ago" stays true while a page stays open.
setInterval(() => refreshTimes(main), 30_000);
window.addEventListener('hashchange', render);
void render();
