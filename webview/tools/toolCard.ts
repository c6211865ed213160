/**
 * A tool call card, updated in place: kind icon, title, status (spinner while running), locations,
 * content items (markdown, images, resource links, diffs, terminals), an inline permission prompt
 * and collapsible raw input/output. Only the parts whose data changed are rebuilt.
 */
import * as l10n from '@vscode/l10n';
import type { Entry, LocationView, ToolCallEntry, ToolContentView, ToolStatus } from '../../src/protocol/messages';
import { assertNever } from '../../src/protocol/guards';
import { codiconFor, isToolKind } from '../../src/protocol/toolKinds';
import { basename, button, h, icon, keyboardScrollable } from '../core/dom';
import { renderDiff } from '../review/diffView';
import { renderMarkdown } from '../markdown/markdown';
import { renderPermission } from './permission';
import { SubagentGroup } from './subagentGroup';
import { SubagentControls } from './subagentControls';
import { locationLabel, RASTER, sameItem, STATUS_ICONS, statusLabelOf, titleTooltip, type RenderedItem } from './toolCardParts';
import { renderOutput } from './toolOutputView';
import type { EntryView, ViewContext } from '../entries/viewContext';

/** Focuses a permission part: a prompt's tab stop, or the answer itself (focusable for that only). */
function focusWithin(part: HTMLElement): void {
  const target = part.querySelector<HTMLElement>('button[tabindex="0"]') ?? part.querySelector<HTMLElement>('.permission-result') ?? part;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}

export class ToolCardView implements EntryView {
  readonly kind = 'tool_call' as const;
  readonly element: HTMLElement;
  private readonly kindIcon: HTMLSpanElement;
  private readonly title: HTMLSpanElement;
  private readonly statusIcon: HTMLSpanElement;
  private readonly statusText: HTMLSpanElement;
  private readonly serverBadge: HTMLSpanElement;
  /** Open and Stop for a child session's card (subagents RFD); hidden on every other card. */
  private readonly childControls: SubagentControls;
  // The body: built with the card, or on hydrate() when deferred (then only the header exists).
  private locations!: HTMLElement;
  private content!: HTMLElement;
  private permission!: HTMLElement;
  private raw!: HTMLDetailsElement;
  /** A subagent's steps, once the card has any (see subagentGroup.ts). */
  private group: SubagentGroup | undefined;
  private readonly makeGroup = (): void => this.ensureGroup();
  private items: RenderedItem[] = [];
  private previous: ToolCallEntry | undefined;

  /** The entry the body (locations, content, permission, details) was last rendered from. */
  private bodyShown: ToolCallEntry | undefined;
  /** False for a card created with `deferBody` until `hydrate()`: only the header exists. */
  private hydrated: boolean;

  /**
   * `deferBody`: build only the article and its header (all attributes of the DOM contract) now,
   * the body on `hydrate()`. Used for the older entries of a large snapshot.
   */
  constructor(
    private readonly entryId: string,
    entry: Entry,
    private readonly ctx: ViewContext,
    deferBody = false,
  ) {
    this.hydrated = false;
    this.element = h('article', { role: 'article', class: 'entry tool-card', 'data-entry-kind': 'tool_call' });
    this.kindIcon = icon('tools', 'tool-kind-icon');
    this.title = h('span', { class: 'tool-title' });
    this.statusIcon = icon('circle-large-outline');
    this.statusText = h('span', { class: 'tool-status-text' });
    this.serverBadge = h('span', { class: 'tool-server-badge', title: l10n.t('Ran on the agent’s server') }, icon('cloud'), l10n.t('server'));
    this.serverBadge.hidden = true;
    this.childControls = new SubagentControls(entryId, ctx);
    this.element.append(
      h(
        'div',
        { class: 'tool-header' },
        this.kindIcon,
        this.title,
        this.serverBadge,
        h('span', { class: 'tool-status' }, this.statusIcon, this.statusText),
        this.childControls.element,
      ),
    );
    if (!deferBody) this.buildBody();
    this.update(entry);
  }

  private buildBody(): void {
    this.hydrated = true;
    const { ctx, entryId } = this;
    this.locations = h('div', { class: 'tool-locations' });
    this.content = h('div', { class: 'tool-content' });
    this.permission = h('div', { class: 'tool-permission' });
    this.raw = h('details', { class: 'tool-raw' }, h('summary', {}, l10n.t('Details')));
    this.raw.hidden = true;
    this.raw.addEventListener('toggle', () => {
      ctx.host.setExpanded(`${entryId}:raw`, this.raw.open);
      if (this.raw.open && this.previous) this.fillRaw(this.previous);
    });
    this.element.append(this.locations, this.content, this.permission, this.raw);
    if (ctx.host.expanded(`${entryId}:raw`) === true) this.raw.open = true;
    ctx.nested?.offer(entryId, this.makeGroup);
    if ((ctx.nested?.childIds(entryId).length ?? 0) > 0) this.ensureGroup();
  }

  /** The group of a subagent's steps, placed before the prompt and Details. */
  private ensureGroup(): void {
    if (this.group || !this.hydrated || !this.ctx.nested) return;
    this.group = new SubagentGroup(this.entryId, this.ctx);
    this.content.after(this.group.element);
  }

  /** The subagent's steps are shown (a search or a prompt lands inside them). */
  openGroup(): void {
    this.group?.setOpen(true);
  }

  get isHydrated(): boolean {
    return this.hydrated;
  }

  /** Builds the deferred body from the latest entry. */
  hydrate(): void {
    if (this.hydrated) return;
    this.buildBody();
    if (this.previous) this.updateBody(this.previous);
  }

  update(entry: Entry): void {
    if (entry.kind !== 'tool_call') return;
    const kind = isToolKind(entry.toolKind) ? entry.toolKind : 'other';
    const status: ToolStatus = entry.status in STATUS_ICONS ? entry.status : 'pending';
    const title = String(entry.title ?? '');
    const el = this.element;
    el.setAttribute('data-tool-call-id', String(entry.toolCallId));
    el.setAttribute('data-kind', kind);
    el.setAttribute('data-status', status);
    // A child session blocked on the user (a prompt in its thread) says so instead of "Running".
    const blocked = entry.childSession?.state === 'requires_action' && status === 'in_progress';
    const [statusIcon, statusLabel] = blocked ? ['bell', l10n.t('Waiting for you')] : [STATUS_ICONS[status], statusLabelOf(status)];
    el.setAttribute('aria-label', l10n.t('{0} ({1})', title, statusLabel));
    el.className = `entry tool-card status-${status}`;
    this.kindIcon.className = `codicon codicon-${codiconFor(kind)} tool-kind-icon`;
    this.title.textContent = title;
    const tooltip = titleTooltip(entry);
    this.title.title = entry.ranOn === 'server' ? l10n.t('{0} — ran on the agent’s server, not in this workspace', tooltip) : tooltip;
    el.toggleAttribute('data-ran-on-server', entry.ranOn === 'server');
    this.serverBadge.hidden = entry.ranOn !== 'server';
    this.statusIcon.className = `codicon codicon-${statusIcon}`;
    this.statusText.textContent = statusLabel;
    const child = entry.childSession;
    el.toggleAttribute('data-child-session', child !== undefined);
    if (child !== undefined) el.setAttribute('data-child-state', String(child.state));
    else el.removeAttribute('data-child-state');
    this.childControls.update(title, child);
    const awaiting = entry.permission?.state.kind === 'pending';
    el.toggleAttribute('data-awaiting-permission', awaiting);
    this.previous = entry;
    // A question waiting for the user is never deferred.
    if (awaiting && !this.hydrated) this.buildBody();
    if (this.hydrated) this.updateBody(entry);
  }

  private updateBody(entry: ToolCallEntry): void {
    const prev = this.bodyShown;
    const title = String(entry.title ?? '');
    if (!prev || prev.locations !== entry.locations) this.renderLocations(Array.isArray(entry.locations) ? entry.locations : []);
    this.renderContent(Array.isArray(entry.content) ? entry.content : [], entry.id);
    // Compared by value: every upsert brings new objects, and re-rendering would drop what the user
    // is typing into a rule proposal.
    if (!prev || JSON.stringify(prev.permission) !== JSON.stringify(entry.permission) || prev.title !== entry.title) {
      const part = entry.permission ? renderPermission(entry.permission, title, this.ctx.host) : null;
      const hadFocus = this.permission.contains(document.activeElement);
      this.permission.replaceChildren(...(part ? [part] : []));
      // The prompt the keyboard was in became its answer: focus stays there, not on the page.
      if (hadFocus && part) focusWithin(part);
    }
    this.raw.hidden = entry.rawInput === undefined && entry.rawOutput === undefined && !entry.agentTitle;
    this.bodyShown = entry;
    if (this.raw.open) this.fillRaw(entry);
  }

  private renderLocations(locations: LocationView[]): void {
    this.locations.replaceChildren(
      ...locations.map((loc) => {
        const label = `${basename(loc.path)}${loc.line ? `:${loc.line}` : ''}`;
        const b = button(label, () => this.ctx.host.post({ type: 'openLocation', path: loc.path, line: loc.line }), {
          cls: `link location${loc.inWorkspace ? '' : ' outside'}`,
          icon: 'go-to-file',
          title: loc.inWorkspace ? (loc.shown ?? loc.path) : l10n.t('{0} (outside the workspace)', loc.path),
          // Starts with what the button shows (WCAG 2.5.3), then says where it goes.
          label: l10n.t('{0} — {1}', label, locationLabel(loc)),
        });
        return b;
      }),
    );
  }

  /** Rebuilds only the content items that changed, keyed by position. */
  private renderContent(content: ToolContentView[], entryId: string): void {
    const next: RenderedItem[] = [];
    for (let index = 0; index < content.length; index++) {
      const item = content[index];
      const old = this.items[index];
      if (old && sameItem(old.item, item)) {
        next.push(old);
        continue;
      }
      const rendered = this.renderItem(item, entryId, index);
      if (old) {
        old.terminal?.dispose();
        old.element.replaceWith(rendered.element);
      } else {
        this.content.append(rendered.element);
      }
      next.push(rendered);
    }
    for (const extra of this.items.slice(content.length)) {
      extra.terminal?.dispose();
      extra.element.remove();
    }
    this.items = next;
  }

  private renderItem(item: ToolContentView, entryId: string, index: number): RenderedItem {
    try {
      switch (item.type) {
        case 'markdown':
          return { item, element: renderMarkdown(String(item.text), 'markdown tool-markdown') };
        case 'image': {
          if (!RASTER.test(item.mimeType) || !/^[A-Za-z0-9+/=\s]*$/.test(item.data)) {
            return { item, element: h('div', { class: 'tool-note' }, l10n.t('Image not shown ({0})', item.mimeType)) };
          }
          return {
            item,
            element: h('img', { class: 'tool-image', alt: l10n.t('Image from the tool call'), src: `data:${item.mimeType};base64,${item.data}` }),
          };
        }
        case 'resource_link':
          return { item, element: this.resourceLink(item.uri, item.name) };
        case 'output':
          return { item, element: renderOutput(item, `${entryId}:out:${index}`, this.ctx.host) };
        case 'diff':
          return { item, element: renderDiff({ view: item, entryId, index }, this.ctx.host) };
        case 'terminal': {
          const terminal = this.ctx.terminals.create(item.terminalId);
          return { item, element: terminal.element, terminal };
        }
        default:
          return assertNever(item);
      }
    } catch (error) {
      console.error('Tandem: could not render tool content', error);
      return { item, element: h('div', { class: 'entry-broken', role: 'note' }, icon('warning'), ` ${l10n.t('This content could not be shown')}`) };
    }
  }

  private resourceLink(uri: string, name: string): HTMLElement {
    const isFile = /^file:/i.test(uri);
    return button(
      name || uri,
      () => {
        if (isFile) {
          let path = decodeURIComponent(uri.replace(/^file:\/\//i, ''));
          if (/^\/[A-Za-z]:/.test(path)) path = path.slice(1); // file:///C:/x → C:/x
          this.ctx.host.post({ type: 'openLocation', path });
        } else {
          this.ctx.host.post({ type: 'openLink', href: uri });
        }
      },
      { cls: 'link resource-link', icon: isFile ? 'file' : 'link-external', title: uri },
    );
  }

  private fillRaw(entry: ToolCallEntry): void {
    const parts: HTMLElement[] = [h('summary', {}, l10n.t('Details'))];
    if (typeof entry.agentTitle === 'string' && entry.agentTitle !== '')
      parts.push(h('div', { class: 'raw-label' }, l10n.t("The agent's title")), h('pre', { class: 'raw-json agent-title' }, entry.agentTitle));
    if (entry.rawInput !== undefined)
      parts.push(h('div', { class: 'raw-label' }, l10n.t('Input')), keyboardScrollable(h('pre', { class: 'raw-json' }, entry.rawInput), l10n.t('Input')));
    if (entry.rawOutput !== undefined)
      parts.push(h('div', { class: 'raw-label' }, l10n.t('Output')), keyboardScrollable(h('pre', { class: 'raw-json' }, entry.rawOutput), l10n.t('Output')));
    this.raw.replaceChildren(...parts);
  }

  dispose(): void {
    for (const item of this.items) item.terminal?.dispose();
    this.items = [];
    this.ctx.nested?.withdraw(this.entryId, this.makeGroup);
    this.group?.dispose();
    this.group = undefined;
  }
}
