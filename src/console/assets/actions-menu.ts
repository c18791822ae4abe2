// A menu of actions behind one button (<details class="menu">). An action, once done, gives focus back to
// the menu's button (a dialog it asked in gives focus back there too), unless it moved focus on, to a form
// it opened; a click elsewhere closes the menu. Escape closes every menu the same way (app.ts); arrow keys
// move between its items.
import { act, fill, h } from './dom.js';

export interface MenuAction {
  label: string;
  run(): Promise<void>;
  danger?: boolean;
}

export interface ActionsMenu {
  element: HTMLDetailsElement;
  /** Replaces the actions (an endpoint's change Pause for Resume); the button stays, and keeps focus. */
  setActions(actions: readonly MenuAction[]): void;
  /** Names the button again (what it acts on was renamed). */
  setName(name: string): void;
}

/** `name` is the button's accessible name, which begins with its visible text "Actions". */
export function actionsMenu(name: string, errors: HTMLElement): ActionsMenu {
  const summary = h('summary', { 'aria-label': name }, 'Actions');
  const items = h('div', { class: 'menu-items' });
  const menu = h('details', { class: 'menu' }, summary, items);

  const closeOutside = (event: MouseEvent) => {
    if (!menu.isConnected) return document.removeEventListener('click', closeOutside);
    if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  };
  document.addEventListener('click', closeOutside);

  // Arrow keys move between the items (from the button, down opens the menu at its first item and up at
  // its last); Home and End go to the ends. Tab still leaves the menu as from any list of buttons.
  menu.addEventListener('keydown', (event) => {
    const buttons = [...items.querySelectorAll('button')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const to: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at < 0 ? buttons.length - 1 : at - 1, Home: 0, End: buttons.length - 1 };
    const index = to[event.key];
    if (index === undefined || buttons.length === 0 || (at < 0 && (event.key === 'Home' || event.key === 'End'))) return;
    event.preventDefault();
    menu.open = true;
    buttons[(index + buttons.length) % buttons.length]!.focus();
  });

  let current: readonly MenuAction[] = [];

  function item(action: MenuAction, index: number): HTMLButtonElement {
    const button = h('button', { type: 'button', class: action.danger ? 'danger-text' : null }, action.label);
    button.addEventListener('click', async () => {
      menu.open = false;
      // The pressed item is hidden now: focus waits on the menu's button, where a dialog gives it back.
      summary.focus();
      await act(button, errors, current[index]!.run);
      const focused = document.activeElement;
      if (summary.isConnected && (focused === null || focused === document.body || menu.contains(focused))) summary.focus();
    });
    return button;
  }

  // A page that redraws itself (every few seconds while a delivery is on its way) sets the same actions
  // again: the buttons stay, so a keyboard's focus on one, or a press on its way, is not lost.
  function setActions(actions: readonly MenuAction[]): void {
    const same = actions.length === current.length && actions.every((action, i) => action.label === current[i]!.label && Boolean(action.danger) === Boolean(current[i]!.danger));
    current = actions;
    if (!same) fill(items, actions.map(item));
  }

  return { element: menu, setActions, setName: (name) => summary.setAttribute('aria-label', name) };
}
