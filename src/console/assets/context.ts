// What the shell (app.ts) hands each page: where to draw, how to move on, and who is signed in where.
import type { Access, HomeType, Session } from './api-types.js';

/** A team or organization the person works in, as the menus list it. */
export interface Home {
  type: HomeType;
  id: string;
  name: string;
  access: Access;
  organization_name?: string | null;
}

export interface PageContext {
  /** The <main> element a page draws into. */
  main: HTMLElement;
  /** Goes to a hash route, or draws the current one again. */
  navigate(hash: string): void;
  /** Runs when the person leaves the page (its timers stop). */
  onLeave(handler: () => void): void;
  homes(): Home[];
  setSession(session: Session | null): void;
  /** Shows a home's menus for a page that found its home itself (a guide opened by id). */
  showHome(type: HomeType, id: string, slug: string): Home;
}

/** A section page of one home (#/<type>/<id>/<section>), drawn for a signed-in person. */
export interface SectionContext extends PageContext {
  home: Home;
  params: URLSearchParams;
  session: Session;
}
