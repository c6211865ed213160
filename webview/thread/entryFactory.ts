/** Builds the view for an entry by kind; a view that fails to build becomes an inline placeholder. */
import type { Entry } from '../../src/protocol/messages';
import { assertNever } from '../../src/protocol/guards';
import { AuthView, CompactionView, QuestionView } from '../entries/agentAsks';
import { BrokenEntryView, MessageView, PlanView, ThoughtView } from '../entries/entries';
import { ErrorView, NoticeView, TurnEndView } from '../entries/outcomeEntries';
import { ToolCardView } from '../tools/toolCard';
import type { EntryView, ViewContext } from '../entries/viewContext';

function createView(entry: Entry, ctx: ViewContext, deferBody: boolean): EntryView {
  switch (entry.kind) {
    case 'user':
    case 'agent':
      return new MessageView(entry.kind, entry, ctx);
    case 'thought':
      return new ThoughtView(entry.id, entry, ctx);
    case 'plan':
      return new PlanView(entry);
    case 'tool_call':
      return new ToolCardView(entry.id, entry, ctx, deferBody);
    case 'error':
      return new ErrorView(entry, ctx);
    case 'notice':
      return new NoticeView(entry);
    case 'auth':
      return new AuthView(entry, ctx);
    case 'question':
      return new QuestionView(entry, ctx);
    case 'compaction':
      return new CompactionView(entry);
    case 'turn_end':
      return new TurnEndView(entry, ctx);
    default:
      return assertNever(entry);
  }
}

/**
 * The view for `entry`. `deferBody`: a tool card builds only its header now and its body on
 * `hydrate()` (the older entries of a small thread, built in the background).
 */
export function buildView(entry: Entry, ctx: ViewContext, deferBody = false): EntryView {
  try {
    return createView(entry, ctx, deferBody);
  } catch (error) {
    console.error(`Tandem: could not render entry ${entry.id}`, error);
    return new BrokenEntryView(entry.kind, error instanceof Error ? error.message : error);
  }
}

/** True while the view's body is deferred (see `buildView`). */
export function isDeferred(view: EntryView): boolean {
  return view instanceof ToolCardView && !view.isHydrated;
}

/** Applies a changed entry to its view; when that fails, returns the inline placeholder to show instead. */
export function updateView(view: EntryView, entry: Entry): EntryView | undefined {
  try {
    view.update(entry);
    return undefined;
  } catch (error) {
    console.error(`Tandem: could not update entry ${entry.id}`, error);
    return new BrokenEntryView(entry.kind, error instanceof Error ? error.message : error);
  }
}

/** A kept view updated to `entry`, or the placeholder shown instead when that fails (undefined stays undefined). */
export function updatedView(view: EntryView | undefined, entry: Entry): EntryView | undefined {
  const broken = view && updateView(view, entry);
  if (!broken) return view;
  view?.dispose();
  return broken;
}
